// Starts the workflow of one kept Google Play notification, `play-notification/{app_id}/{message_id}`: conflict
// policy USE_EXISTING (a redelivery while it runs joins it), reuse policy ALLOW_DUPLICATE (a redelivery of a push
// whose run ended without normalising it, a business failure since fixed, runs it again; one normalised is not
// started again: the endpoint checks the kept row first).
import type { WorkflowClient } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import { playNotificationWorkflow } from '../workflows/play-notification.js';
import { playNotificationWorkflowId, type PlayNotificationInput } from '../workflows/play-notification-messages.js';

export async function startPlayNotification(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: PlayNotificationInput,
): Promise<void> {
  await client.workflow.start(playNotificationWorkflow, {
    workflowId: playNotificationWorkflowId(input.appId, input.messageId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: AppIdKey, value: input.appId }],
  });
}
