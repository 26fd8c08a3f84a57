// Starts the normalising workflow of one taken-in store notification, `store-notification/{app}/{source}/{id}`
// (conflict policy USE_EXISTING: a redelivery joins the run; reuse ALLOW_DUPLICATE: an item whose run failed is
// started again by the hourly catch-up).
import type { WorkflowClient } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import { storeNotificationWorkflow } from '../workflows/store-notification.js';
import { storeNotificationWorkflowId, type StoreNotificationInput } from '../workflows/store-notification-messages.js';

export async function startStoreNotification(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: StoreNotificationInput,
): Promise<string> {
  const handle = await client.workflow.start(storeNotificationWorkflow, {
    workflowId: storeNotificationWorkflowId(input),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: AppIdKey, value: input.appId }],
  });
  return handle.workflowId;
}
