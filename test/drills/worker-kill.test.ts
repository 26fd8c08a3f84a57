// Fault drill: `svc worker` SIGKILLed under load and restarted (production shape: `svc api` and `svc worker` as
// separate processes on the run's PostgreSQL and Temporal). The provider redelivers whatever was not answered 200;
// in the end every event is applied exactly once and the ledger is exact.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../helpers/database.js';
import { requireTestEnv } from '../helpers/env.js';
import { assertExactlyOnce, compressedSchedule, fundGenerously, progressGate, Provider, purchaseWorkload } from '../helpers/provider.js';
import { seedAccount } from '../helpers/seed.js';
import { startSvc, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIPTIONS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 100);

test('a worker SIGKILLed under load and restarted: every event applied once, the ledger exact', async (t) => {
  t.timeout(6 * 60_000);
  const database = await createTestDatabase();
  const running: SvcProcess[] = [];
  try {
    const seed = await seedAccount(database.db);
    await fundGenerously(database.db, seed.org_id);
    const vars = { DATABASE_URL: database.url, TEMPORAL_ADDRESS: requireTestEnv().temporalAddress, TEMPORAL_TASK_QUEUE: `drill-${randomBytes(4).toString('hex')}` };
    const worker = await startSvc('worker', vars);
    running.push(worker);
    const api = await startSvc('api', vars);
    running.push(api);

    const workload = purchaseWorkload(SUBSCRIPTIONS, seed.creator_code);
    const provider = new Provider({ baseUrl: () => api.url, appId: seed.app_id, secret: seed.webhook_secret, retryScheduleMs: compressedSchedule(300) });
    const gate = progressGate();
    const started = Date.now();
    const load = provider.run(workload, 8, gate.onProgress);
    await gate.reached(Math.floor(workload.distinct * 0.3));
    await worker.kill('SIGKILL');
    t.log(`worker SIGKILLed after ${Date.now() - started} ms`);
    await new Promise((r) => setTimeout(r, 2000));
    running.push(await startSvc('worker', vars));
    await load;

    const figures = await assertExactlyOnce(t, database.db, seed, workload, provider);
    t.log(`${figures.events} sends (${figures.distinct} distinct events, ${figures.paid} paid, ${figures.refunds} refunds) in ${Math.round((Date.now() - started) / 1000)} s; answers ${JSON.stringify(figures.statuses)}; reserved ${figures.reservedMicros} micro-USD`);
  } finally {
    for (const p of running.reverse()) await p.kill('SIGTERM');
    await database.drop();
  }
});
