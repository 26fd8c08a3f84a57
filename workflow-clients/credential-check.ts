// Starts the store credential green-check, `credential-check/{app_id}/{platform}`, or joins the one already running
// (conflict policy USE_EXISTING); once closed, the next call checks again. Returns the handle: the API waits on its
// result, the tool server may report progress while it runs.
import type { WorkflowClient, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import type { StorePlatform } from '../schema/types.js';
import { credentialCheckWorkflow } from '../workflows/credential-check.js';
import { credentialCheckWorkflowId } from '../workflows/credential-check-messages.js';

export interface CredentialCheckTarget {
  taskQueue: string;
  appId: string;
  platform: StorePlatform;
}

export function startCredentialCheck(
  client: { workflow: WorkflowClient },
  { taskQueue, appId, platform }: CredentialCheckTarget,
): Promise<WorkflowHandleWithFirstExecutionRunId<typeof credentialCheckWorkflow>> {
  return client.workflow.start(credentialCheckWorkflow, {
    workflowId: credentialCheckWorkflowId(appId, platform),
    taskQueue,
    args: [{ appId, platform }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    workflowExecutionTimeout: '2 minutes',
    typedSearchAttributes: [{ key: AppIdKey, value: appId }],
  });
}
