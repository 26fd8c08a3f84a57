// Starts the voided-purchases poll of an Android store-direct app, `play-voided-sync/{app_id}`, unless it runs
// already (workflow-clients/start-or-join.ts: starting is idempotent; an app switched again after its poll ended
// gets a new one). Called by the activation and, for every app already switched, at worker start.
import type { WorkflowClient } from '@temporalio/client';
import { playVoidedSyncWorkflow } from '../workflows/play-voided-sync.js';
import { playVoidedSyncWorkflowId, type PlayVoidedSyncInput } from '../workflows/play-voided-sync-messages.js';
import { startForEachApp, startOrJoin } from './start-or-join.js';

export async function startPlayVoidedSync(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: PlayVoidedSyncInput,
): Promise<string> {
  const handle = await startOrJoin(client, playVoidedSyncWorkflow, { workflowId: playVoidedSyncWorkflowId(input.appId), taskQueue, input });
  return handle.workflowId;
}

/** Starts the poll of each app (worker start); one that cannot start is reported, the others still start. */
export function ensurePlayVoidedSyncs(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  appIds: string[],
): ReturnType<typeof startForEachApp> {
  return startForEachApp(appIds, (appId) => startPlayVoidedSync(client, taskQueue, { appId }));
}
