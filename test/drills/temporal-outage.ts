// The Temporal outage drill, shared by the 30-second and the 3-minute variants: a private Temporal dev server on
// its own SQLite file, `svc api` and `svc worker` as processes on the run's PostgreSQL, a provider sending under
// load; the dev server is stopped, kept down, then started again on its database file. Events refused meanwhile
// wait in the inbox; whatever the provider gave up on is handed over by the worker's drainer.
import type { ExecutionContext } from 'ava';
import { createTestDatabase } from '../helpers/database.js';
import { request } from '../helpers/http.js';
import { finishDrill, startDrill, stopAll } from '../helpers/drill.js';
import type { DrillFigures } from '../helpers/provider.js';
import { startPrivateTemporal, waitFor, type SvcProcess } from '../helpers/svc-processes.js';

export interface OutageDrill {
  subscriptions: number;
  senders: number;
  outageMs: number;
  retryScheduleMs: number[];
  giveUpAfterMs?: number;
}

export async function runTemporalOutageDrill(
  t: ExecutionContext,
  drill: OutageDrill,
): Promise<DrillFigures & { gaveUp: number; waitingAtRestart: number }> {
  const temporal = await startPrivateTemporal();
  const database = await createTestDatabase();
  const running: SvcProcess[] = [];
  try {
    const run = await startDrill(
      {
        db: database.db,
        databaseUrl: database.url,
        temporalAddress: temporal.address,
        subscriptions: drill.subscriptions,
        senders: drill.senders,
        retryScheduleMs: drill.retryScheduleMs,
        giveUpAfterMs: drill.giveUpAfterMs,
      },
      running,
    );
    const { api, seed, workload, started } = run;

    await temporal.stop();
    const downAt = Date.now();
    t.log(`Temporal stopped after ${downAt - started} ms`);
    const webhook = await request(api.url, 'POST', `/api/webhooks/subprovider/${seed.app_id}`, {
      token: seed.webhook_secret,
      body: workload.subscriptions.at(-1)![0],
    });
    t.is(webhook.status, 503, `a webhook while Temporal is down: ${webhook.text}`);
    t.is(typeof webhook.body?.detail, 'string');
    const ready = await request(api.url, 'GET', '/readyz');
    t.like(ready, { status: 503, body: { detail: 'Temporal unreachable' } });
    await new Promise((r) => setTimeout(r, Math.max(0, drill.outageMs - (Date.now() - downAt))));
    const waitingAtRestart = Number(
      (
        await database
          .db('purchase_inbox')
          .where({ app_id: seed.app_id, status: 'waiting' })
          .count<{ count: string }[]>('* as count')
          .first()
      )?.count,
    );
    await temporal.start();
    t.log(`Temporal started again on its database file after ${Date.now() - downAt} ms; ${waitingAtRestart} events waiting in the inbox`);
    await waitFor(async () => (await request(api.url, 'GET', '/readyz')).status === 200, 'the API to be ready again');
    await run.load;
    t.true(
      running.every((p) => p.child.exitCode === null),
      'api and worker survived the outage',
    );
    const figures = await finishDrill(t, database.db, run, { drainTimeoutMs: 180_000 });
    return { ...figures, waitingAtRestart };
  } finally {
    await stopAll(running);
    await database.drop();
    await temporal.destroy();
  }
}
