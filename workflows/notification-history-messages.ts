// What the agent API, the history catch-up's activity and workflows/notification-history.ts share: the hourly
// catch-up's id, input and summary, and its update. No workflow code here.
import { defineUpdate } from '@temporalio/workflow';

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
