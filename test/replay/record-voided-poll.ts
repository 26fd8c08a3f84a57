// The voided-purchases poll for `npm run replay:record`: an Android store-direct app (a service account the Google
// stub accepts, stored as the activation stores it) whose poll runs on start and lists one voided order we never
// recorded (kept as ignored); the update asks for a poll now; the poll waits its interval (1 s here), polls again,
// then continues as new (pollsPerRun 3). The first run's history, ending in ContinueAsNew, is what the replay
// test keeps.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../runtime/config.js';
import { startPlayVoidedSync } from '../../workflow-clients/play-voided-sync.js';
import { playVoidedSyncWorkflowId, pollVoidedNowUpdate } from '../../workflows/play-voided-sync-messages.js';
import { androidStoreDirect } from './android-store.js';
import { historyJson } from './history-json.js';

export interface VoidedPollRecording {
  client: Client;
  taskQueue: string;
  db: Knex;
  config: Config;
  appId: string;
  address: string;
}

export async function recordVoidedPoll(r: VoidedPollRecording): Promise<{ json: string; events: number }> {
  const google = await androidStoreDirect(r);
  try {
    google.voided.push({
      purchaseToken: `replay-${randomUUID()}`,
      orderId: 'GPA.0000-0000-0000-00000',
      voidedTimeMillis: String(Date.now() - 60_000),
      voidedSource: 0,
      voidedReason: 1,
      subscription: true,
    });

    await startPlayVoidedSync(r.client, r.taskQueue, { appId: r.appId, pollsPerRun: 3, intervalMs: 1000 });
    const handle = r.client.workflow.getHandle(playVoidedSyncWorkflowId(r.appId));
    const summary = await handle.executeUpdate(pollVoidedNowUpdate);
    if (summary.ignored !== 1) throw new Error(`play-voided-sync: unexpected poll ${JSON.stringify(summary)}`);
    const firstRunId = (await handle.describe()).raw.workflowExecutionInfo?.firstRunId ?? undefined;
    for (let i = 0; i < 300; i += 1) {
      if ((await handle.describe()).runId !== firstRunId) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const history = await historyJson(r.address, handle.workflowId, firstRunId);
    await handle.terminate('recorded');
    return history;
  } finally {
    await google.close();
  }
}
