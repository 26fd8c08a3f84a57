// What the starters, the tests and the play-voided-sync workflow share: its id, input, the poll's summary and the
// update that asks for a poll now. No workflow code here.
import { defineUpdate } from '@temporalio/workflow';

export interface PlayVoidedSyncInput {
  appId: string;
  /** Time between polls; default DEFAULT_VOIDED_POLL_INTERVAL_MS. */
  intervalMs?: number;
  /** Continue-as-new after this many polls in one run (the server's suggestion also triggers it). */
  pollsPerRun?: number;
}

/** One poll of Google's voided purchases list. */
export interface PlayVoidedSyncSummary {
  /** False once the app's Android platform is no longer store-direct: the workflow then ends. */
  active: boolean;
  listed: number;
  refunded: number;
  ignored: number;
  /** Where the cursor now stands (ms), null when the poll failed and kept it. */
  syncedUntilMs: number | null;
  /** Why the poll could not list (Google away, credential gone); the next poll tries again from the same start. */
  error: string | null;
}

/**
 * Google allows 30 voided-purchases queries per 30 s and 6,000 a day per app; a poll every 10 minutes is 144 a day,
 * leaving room for later reports (verify.ts) that read the list too.
 */
export const DEFAULT_VOIDED_POLL_INTERVAL_MS = 10 * 60_000;

/** Poll now (after whatever poll is running) and answer that poll's summary. */
export const pollVoidedNowUpdate = defineUpdate<PlayVoidedSyncSummary>('pollVoidedNow');

export function playVoidedSyncWorkflowId(appId: string): string {
  return `play-voided-sync/${appId}`;
}
