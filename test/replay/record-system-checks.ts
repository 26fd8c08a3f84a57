// The two checks for `npm run replay:record`: `system-check` (the worker reaches PostgreSQL, as `svc dev` runs it
// after start-up) and `credential-check-android` (the store credential green-check of an Android store-direct app
// against the Google stub, test/replay/android-store.ts: one activity authenticates and makes one real call).
import { randomUUID } from 'node:crypto';
import { startCredentialCheck } from '../../workflow-clients/credential-check.js';
import { systemCheckWorkflow, systemCheckWorkflowId } from '../../workflows/system-check.js';
import { seedApp } from '../helpers/seed.js';
import { androidStoreDirect } from './android-store.js';
import { historyJson, type Recorded, type Recording } from './history-json.js';

export async function recordSystemCheck(r: Recording): Promise<Recorded> {
  const workflowId = systemCheckWorkflowId(randomUUID());
  const result = await r.client.workflow.execute(systemCheckWorkflow, { taskQueue: r.taskQueue, workflowId });
  if (!result.database) throw new Error(`system-check: ${JSON.stringify(result)}`);
  return { name: 'system-check', ...(await historyJson(r.address, workflowId)) };
}

export async function recordCredentialCheck(r: Recording): Promise<Recorded> {
  const { app_id: appId } = await seedApp(r.db, { walletUsd: 0 });
  const google = await androidStoreDirect({ db: r.db, config: r.config, appId });
  try {
    const handle = await startCredentialCheck(r.client, { taskQueue: r.taskQueue, appId, platform: 'android' });
    const result = await handle.result();
    if (!result.passed) throw new Error(`credential-check-android: ${JSON.stringify(result)}`);
    return { name: 'credential-check-android', ...(await historyJson(r.address, handle.workflowId)) };
  } finally {
    await google.close();
  }
}
