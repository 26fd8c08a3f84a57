// Starts the hourly App Store history catch-up of an iOS store-direct app, `apple-notification-history/{app_id}`
// (conflict policy USE_EXISTING: starting is idempotent; reuse ALLOW_DUPLICATE: an app switched again after its
// catch-up ended gets a new one). Called by the activation and, for every app already switched, at worker start.
import type { WorkflowClient } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import { notificationHistoryWorkflow } from '../workflows/notification-history.js';
import { notificationHistoryWorkflowId, type NotificationHistoryInput } from '../workflows/store-notification-messages.js';

export async function startNotificationHistory(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: NotificationHistoryInput,
): Promise<string> {
  const handle = await client.workflow.start(notificationHistoryWorkflow, {
    workflowId: notificationHistoryWorkflowId(input.appId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: AppIdKey, value: input.appId }],
  });
  return handle.workflowId;
}

/** Starts the catch-up of each app (worker start); one that cannot start is reported, the others still start. */
export async function ensureNotificationHistories(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  appIds: string[],
  intervalMs: number,
): Promise<{ started: number; failed: { appId: string; error: string }[] }> {
  const failed: { appId: string; error: string }[] = [];
  for (const appId of appIds) {
    await startNotificationHistory(client, taskQueue, { appId, intervalMs }).catch((err: unknown) =>
      failed.push({ appId, error: err instanceof Error ? err.message : String(err) }),
    );
  }
  return { started: appIds.length - failed.length, failed };
}
