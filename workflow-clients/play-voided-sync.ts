// Starts the voided-purchases poll of an Android store-direct app, `play-voided-sync/{app_id}`, unless it runs
// already (conflict policy USE_EXISTING: starting is idempotent; reuse ALLOW_DUPLICATE: an app switched again after
// its poll ended gets a new one). Called by the activation and, for every app already switched, at worker start.
import type { WorkflowClient } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import { playVoidedSyncWorkflow } from '../workflows/play-voided-sync.js';
import { playVoidedSyncWorkflowId, type PlayVoidedSyncInput } from '../workflows/play-voided-sync-messages.js';

export async function startPlayVoidedSync(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: PlayVoidedSyncInput,
): Promise<string> {
  const handle = await client.workflow.start(playVoidedSyncWorkflow, {
    workflowId: playVoidedSyncWorkflowId(input.appId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [{ key: AppIdKey, value: input.appId }],
  });
  return handle.workflowId;
}

/** Starts the poll of each app (worker start); one that cannot start is reported, the others still start. */
export async function ensurePlayVoidedSyncs(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  appIds: string[],
): Promise<{ started: number; failed: { appId: string; error: string }[] }> {
  const failed: { appId: string; error: string }[] = [];
  for (const appId of appIds) {
    await startPlayVoidedSync(client, taskQueue, { appId }).catch((err: unknown) =>
      failed.push({ appId, error: err instanceof Error ? err.message : String(err) }),
    );
  }
  return { started: appIds.length - failed.length, failed };
}
