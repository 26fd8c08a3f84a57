// Starting a workflow of one app that a repeated start joins: conflict policy USE_EXISTING (a start while it runs
// joins the run: a redelivery, a second activation, the worker starting again), reuse policy ALLOW_DUPLICATE (a
// start after it closed runs it again), tagged with its app (schema/search-attributes.ts). The callers say what a
// repeat means for their workflow.
import type { WorkflowClient, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';

export function startOrJoin<Input extends { appId: string }, Result>(
  client: { workflow: WorkflowClient },
  workflow: (input: Input) => Promise<Result>,
  start: { workflowId: string; taskQueue: string; input: Input },
): Promise<WorkflowHandleWithFirstExecutionRunId<(input: Input) => Promise<Result>>> {
  return client.workflow.start(workflow, {
    workflowId: start.workflowId,
    taskQueue: start.taskQueue,
    args: [start.input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: AppIdKey, value: start.input.appId }],
  });
}

/** Starts one per app (worker start); one that cannot start is reported, the others still start. */
export async function startForEachApp(
  appIds: string[],
  start: (appId: string) => Promise<unknown>,
): Promise<{ started: number; failed: { appId: string; error: string }[] }> {
  const failed: { appId: string; error: string }[] = [];
  for (const appId of appIds) {
    await start(appId).catch((err: unknown) => failed.push({ appId, error: err instanceof Error ? err.message : String(err) }));
  }
  return { started: appIds.length - failed.length, failed };
}
