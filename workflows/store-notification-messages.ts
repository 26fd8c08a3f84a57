// What the API, the history catch-up and the store-notification workflows share: ids, inputs, outcomes. No
// workflow code here.
import { defineUpdate } from '@temporalio/workflow';

/** One raw notification to normalise: the raw_intake row (app, source, external id). */
export interface StoreNotificationInput {
  appId: string;
  source: string;
  externalId: string;
  /** How long an unbound first purchase waits for the app's report (ms); default 10 minutes. */
  bindingWaitMs?: number;
}

export interface StoreNotificationOutcome {
  kind: 'events' | 'test' | 'ignored';
  /** Why nothing was counted (ignored), or the first processing error of a handed-over event. */
  reason: string | null;
  /** Per event handed over: its type, event id and the pipeline's error (null: processed). */
  events: { type: string; eventId: string | null; error: string | null; duplicate: boolean }[];
  /** An unbound first purchase waited for the app's report (and whether it came). */
  waited: 'reported' | 'timed_out' | null;
}

export const DEFAULT_BINDING_WAIT_MS = 10 * 60_000;

export function storeNotificationWorkflowId(i: Pick<StoreNotificationInput, 'appId' | 'source' | 'externalId'>): string {
  return `store-notification/${i.appId}/${i.source}/${i.externalId}`;
}

// ---- the hourly catch-up from the App Store's Notification History ----

export interface NotificationHistoryInput {
  appId: string;
  /** Between reads; default one hour. */
  intervalMs?: number;
  /** Continue-as-new after this many reads. */
  readsPerRun?: number;
}

export interface NotificationHistorySummary {
  /** False once the app's iOS platform is no longer store-direct (the workflow ends). */
  active: boolean;
  /** Notifications listed by the history, and how many of them were new to us. */
  listed: number;
  takenIn: number;
  pages: number;
  /** Raw items still waiting for their workflow, started again. */
  resumed: number;
  syncedUntilMs: number | null;
  error: string | null;
}

export const DEFAULT_HISTORY_INTERVAL_MS = 60 * 60_000;

/** Reads the history now and answers the read's summary (operators, tests). */
export const readNotificationHistoryNowUpdate = defineUpdate<NotificationHistorySummary>('readNotificationHistoryNow');

export function notificationHistoryWorkflowId(appId: string): string {
  return `apple-notification-history/${appId}`;
}
