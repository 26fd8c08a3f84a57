// Starts the agent's end-to-end check, `test-integration/{app_id}/{run_id}` on the worker's task queue (a bounded
// run: two minutes at most). The API waits on the handle for its answer; the tool server can also report progress.
import { ApplicationFailure, type WorkflowClient, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import { testIntegrationWorkflow } from '../workflows/test-integration.js';
import { NO_TEST_CREATOR_CODE, testIntegrationWorkflowId } from '../workflows/test-integration-messages.js';

export interface TestIntegrationTarget {
  taskQueue: string;
  appId: string;
  runId: string;
}

export function startTestIntegration(
  client: { workflow: WorkflowClient },
  { taskQueue, appId, runId }: TestIntegrationTarget,
): Promise<WorkflowHandleWithFirstExecutionRunId<typeof testIntegrationWorkflow>> {
  return client.workflow.start(testIntegrationWorkflow, {
    workflowId: testIntegrationWorkflowId(appId, runId),
    taskQueue,
    args: [{ appId, runId }],
    workflowExecutionTimeout: '2 minutes',
    typedSearchAttributes: [{ key: AppIdKey, value: appId }],
  });
}

/** True when the run failed because the app had no creator code to test with (the activity's business rejection). */
export function failedForNoCreatorCode(err: unknown): boolean {
  // An activity's failure arrives wrapped (WorkflowFailedError > ActivityFailure > ApplicationFailure).
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof ApplicationFailure && e.type === NO_TEST_CREATOR_CODE.type) return true;
  }
  return false;
}
