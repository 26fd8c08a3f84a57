// Starts the workflow of one kept store notification (the flow of workflows/store-notification.ts), joining a run
// under way (workflow-clients/start-or-join.ts): a redelivery while it runs joins it; one whose run ended without
// normalising the item (a business failure since fixed) runs again, from the hourly catch-up (App Store) or the
// redelivered push (Google Play); an item already normalised is not started again (the intake checks the kept row).
import type { WorkflowClient } from '@temporalio/client';
import { storeNotificationWorkflow } from '../workflows/apple-notification.js';
import { playNotificationWorkflow } from '../workflows/google-notification.js';
import {
  playNotificationWorkflowId,
  storeNotificationWorkflowId,
  type PlayNotificationInput,
  type StoreNotificationInput,
} from '../workflows/store-notification-messages.js';
import { startOrJoin } from './start-or-join.js';

/** App Store: `store-notification/{app}/{source}/{id}`; answers the workflow id. */
export async function startStoreNotification(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: StoreNotificationInput,
): Promise<string> {
  const handle = await startOrJoin(client, storeNotificationWorkflow, { workflowId: storeNotificationWorkflowId(input), taskQueue, input });
  return handle.workflowId;
}

/** Google Play: `play-notification/{app_id}/{message_id}`. */
export async function startPlayNotification(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: PlayNotificationInput,
): Promise<void> {
  await startOrJoin(client, playNotificationWorkflow, {
    workflowId: playNotificationWorkflowId(input.appId, input.messageId),
    taskQueue,
    input,
  });
}
