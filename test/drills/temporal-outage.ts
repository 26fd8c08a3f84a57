// The Temporal outage drill, shared by the 30-second and the 3-minute variants: a private Temporal dev server on
// its own SQLite file, `svc api` and `svc worker` as processes on the run's PostgreSQL, a provider sending under
// load; the dev server is stopped, kept down, then started again on its database file. Events refused meanwhile
// wait in the inbox; whatever the provider gave up on is handed over by the worker's drainer.
import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../helpers/database.js';
import { request } from '../helpers/http.js';
import { assertExactlyOnce, fundGenerously, progressGate, Provider, purchaseWorkload, type DrillFigures } from '../helpers/provider.js';
import { seedAccount } from '../helpers/seed.js';
import { startPrivateTemporal, startSvc, waitFor, type SvcProcess } from '../helpers/svc-processes.js';

export interface OutageDrill {
  subscriptions: number;
  senders: number;
  outageMs: number;
  retryScheduleMs: number[];
  giveUpAfterMs?: number;
}

export async function runTemporalOutageDrill(t: ExecutionContext, drill: OutageDrill): Promise<DrillFigures & { gaveUp: number; waitingAtRestart: number }> {
  const temporal = await startPrivateTemporal();
  const database = await createTestDatabase();
  const running: SvcProcess[] = [];
  try {
    const seed = await seedAccount(database.db);
    await fundGenerously(database.db, seed.org_id);
    const vars = { DATABASE_URL: database.url, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: `drill-${randomBytes(4).toString('hex')}` };
    running.push(await startSvc('worker', vars));
    const api = await startSvc('api', vars);
    running.push(api);

    const workload = purchaseWorkload(drill.subscriptions, seed.creator_code);
    const provider = new Provider({ baseUrl: () => api.url, appId: seed.app_id, secret: seed.webhook_secret, retryScheduleMs: drill.retryScheduleMs, giveUpAfterMs: drill.giveUpAfterMs });
    const gate = progressGate();
    const started = Date.now();
    const load = provider.run(workload, drill.senders, gate.onProgress);
    await gate.reached(Math.floor(workload.distinct * 0.3));

    await temporal.stop();
    const downAt = Date.now();
    t.log(`Temporal stopped after ${downAt - started} ms`);
    const webhook = await request(api.url, 'POST', `/api/webhooks/subprovider/${seed.app_id}`, { token: seed.webhook_secret, body: workload.subscriptions.at(-1)![0] });
    t.is(webhook.status, 503, `a webhook while Temporal is down: ${webhook.text}`);
    t.is(typeof webhook.body?.detail, 'string');
    const ready = await request(api.url, 'GET', '/readyz');
    t.like(ready, { status: 503, body: { detail: 'Temporal unreachable' } });
    await new Promise((r) => setTimeout(r, Math.max(0, drill.outageMs - (Date.now() - downAt))));
    const waitingAtRestart = Number((await database.db('purchase_inbox').where({ app_id: seed.app_id, status: 'waiting' }).count<{ count: string }[]>('* as count').first())?.count);
    await temporal.start();
    t.log(`Temporal started again on its database file after ${Date.now() - downAt} ms; ${waitingAtRestart} events waiting in the inbox`);
    await waitFor(async () => (await request(api.url, 'GET', '/readyz')).status === 200, 'the API to be ready again');
    await load;
    t.true(running.every((p) => p.child.exitCode === null), 'api and worker survived the outage');

    const figures = await assertExactlyOnce(t, database.db, seed, workload, provider, { drainTimeoutMs: 180_000 });
    const gaveUp = provider.deliveries.filter((d) => !d.acknowledged).length;
    t.log(`${figures.events} sends (${figures.distinct} distinct events, ${figures.paid} paid, ${figures.refunds} refunds, ${gaveUp} given up by the provider) in ${Math.round((Date.now() - started) / 1000)} s; answers ${JSON.stringify(figures.statuses)}; reserved ${figures.reservedMicros} micro-USD`);
    return { ...figures, gaveUp, waitingAtRestart };
  } finally {
    for (const p of running.reverse()) await p.kill('SIGTERM');
    await database.drop();
    await temporal.destroy();
  }
}
