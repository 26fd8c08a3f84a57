// Fault drill: `svc api` SIGKILLed while requests are in flight and restarted on the same port. The provider
// redelivers every event it got no 200 for (refused or reset connections included); events whose request died
// after the inbox took them are handed over by the worker's drainer or by the redelivery, once.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../runtime/ports.js';
import { createTestDatabase } from '../helpers/database.js';
import { requireTestEnv } from '../helpers/env.js';
import { assertExactlyOnce, compressedSchedule, fundGenerously, progressGate, Provider, purchaseWorkload } from '../helpers/provider.js';
import { seedAccount } from '../helpers/seed.js';
import { startSvc, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIPTIONS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 100);

test('the API SIGKILLed mid-request and restarted: redelivered events are applied once, the ledger exact', async (t) => {
  t.timeout(6 * 60_000);
  const database = await createTestDatabase();
  const running: SvcProcess[] = [];
  try {
    const seed = await seedAccount(database.db);
    await fundGenerously(database.db, seed.org_id);
    const vars = { DATABASE_URL: database.url, TEMPORAL_ADDRESS: requireTestEnv().temporalAddress, TEMPORAL_TASK_QUEUE: `drill-${randomBytes(4).toString('hex')}` };
    running.push(await startSvc('worker', vars));
    const port = await freePort();
    const api = await startSvc('api', vars, port);
    running.push(api);

    const workload = purchaseWorkload(SUBSCRIPTIONS, seed.creator_code);
    const provider = new Provider({ baseUrl: () => api.url, appId: seed.app_id, secret: seed.webhook_secret, retryScheduleMs: compressedSchedule(300) });
    const gate = progressGate();
    const started = Date.now();
    const load = provider.run(workload, 8, gate.onProgress);
    await gate.reached(Math.floor(workload.distinct * 0.3));
    // Mid-request: with 8 senders there are requests in flight at any moment of the load.
    const inFlight = provider.deliveries.filter((d) => !d.acknowledged).length;
    await api.kill('SIGKILL');
    t.log(`API SIGKILLed after ${Date.now() - started} ms with ${inFlight} deliveries unanswered`);
    await new Promise((r) => setTimeout(r, 1500));
    running.push(await startSvc('api', vars, port));
    await load;

    const figures = await assertExactlyOnce(t, database.db, seed, workload, provider);
    t.true((figures.statuses.network ?? 0) > 0, 'the kill cut requests off (the provider saw failed connections)');
    t.log(`${figures.events} sends (${figures.distinct} distinct events, ${figures.paid} paid, ${figures.refunds} refunds) in ${Math.round((Date.now() - started) / 1000)} s; answers ${JSON.stringify(figures.statuses)}; reserved ${figures.reservedMicros} micro-USD`);
  } finally {
    for (const p of running.reverse()) await p.kill('SIGTERM');
    await database.drop();
  }
});
