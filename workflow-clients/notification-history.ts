// Starts the hourly App Store history catch-up of an iOS store-direct app, `apple-notification-history/{app_id}`
// (workflow-clients/start-or-join.ts: starting is idempotent; an app switched again after its catch-up ended gets a
// new one). Called by the activation and, for every app already switched, at worker start.
import type { WorkflowClient } from '@temporalio/client';
import { notificationHistoryWorkflow } from '../workflows/notification-history.js';
import { notificationHistoryWorkflowId, type NotificationHistoryInput } from '../workflows/notification-history-messages.js';
import { startForEachApp, startOrJoin } from './start-or-join.js';

export async function startNotificationHistory(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: NotificationHistoryInput,
): Promise<string> {
  const handle = await startOrJoin(client, notificationHistoryWorkflow, {
    workflowId: notificationHistoryWorkflowId(input.appId),
    taskQueue,
    input,
  });
  return handle.workflowId;
}

/** Starts the catch-up of each app (worker start); one that cannot start is reported, the others still start. */
export function ensureNotificationHistories(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  appIds: string[],
  intervalMs: number,
): ReturnType<typeof startForEachApp> {
  return startForEachApp(appIds, (appId) => startNotificationHistory(client, taskQueue, { appId, intervalMs }));
}
