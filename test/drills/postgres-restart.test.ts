// Fault drill: PostgreSQL restarted under load (a private embedded server of this test, stopped and started again
// on its data directory; `svc api` and `svc worker` are separate processes). While it is down every surface answers
// 503 with `{"detail"}`, never 500; afterwards every event is applied exactly once and the ledger is exact.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createDb } from '../../runtime/db.js';
import { freePort } from '../../runtime/ports.js';
import { requireTestEnv } from '../helpers/env.js';
import { request, type JsonResponse } from '../helpers/http.js';
import { assertExactlyOnce, compressedSchedule, fundGenerously, progressGate, Provider, purchaseWorkload } from '../helpers/provider.js';
import { seedAccount } from '../helpers/seed.js';
import { startPrivatePostgres, startSvc, waitFor, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIPTIONS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 100);
const DOWN_MS = 5000;

test('PostgreSQL restarted under load: 503 with detail on every surface meanwhile, then every event applied once, the ledger exact', async (t) => {
  t.timeout(6 * 60_000);
  const pg = await startPrivatePostgres();
  const db = createDb(pg.url, 4);
  const running: SvcProcess[] = [];
  try {
    const seed = await seedAccount(db);
    await fundGenerously(db, seed.org_id);
    const vars = { DATABASE_URL: pg.url, TEMPORAL_ADDRESS: requireTestEnv().temporalAddress, TEMPORAL_TASK_QUEUE: `drill-${randomBytes(4).toString('hex')}` };
    running.push(await startSvc('worker', vars));
    const api = await startSvc('api', vars, await freePort());
    running.push(api);

    const workload = purchaseWorkload(SUBSCRIPTIONS, seed.creator_code);
    const provider = new Provider({ baseUrl: () => api.url, appId: seed.app_id, secret: seed.webhook_secret, retryScheduleMs: compressedSchedule(300) });
    const gate = progressGate();
    const started = Date.now();
    const load = provider.run(workload, 8, gate.onProgress);
    await gate.reached(Math.floor(workload.distinct * 0.3));

    await pg.stopServer();
    const downAt = Date.now();
    t.log(`PostgreSQL stopped after ${downAt - started} ms`);
    // Every surface while the database is away: 503 and a JSON detail.
    const probes: [string, () => Promise<JsonResponse>][] = [
      ['sdk init', () => request(api.url, 'POST', '/api/sdk/init', { token: seed.sdk_key, body: { platform: 'ios', sdk_version: '1.0.0', app_version: '1.0' } })],
      ['agent whoami', () => request(api.url, 'GET', '/api/agent/whoami', { token: seed.agent_key })],
      ['agent wallet', () => request(api.url, 'GET', '/api/agent/wallet', { token: seed.agent_key })],
      ['webhook', () => request(api.url, 'POST', `/api/webhooks/subprovider/${seed.app_id}`, { token: seed.webhook_secret, body: workload.subscriptions[0]![0] })],
      ['public join', () => request(api.url, 'POST', `/api/public/campaigns/${seed.campaign_id}/join`, { body: { name: 'P', email: 'p@example.com' } })],
      ['readyz', () => request(api.url, 'GET', '/readyz')],
    ];
    for (const [name, probe] of probes) {
      const res = await probe();
      t.is(res.status, 503, `${name} while PostgreSQL is down: ${res.status} ${res.text}`);
      t.is(typeof res.body?.detail, 'string', `${name} answers {"detail"}: ${res.text}`);
    }
    await new Promise((r) => setTimeout(r, Math.max(0, DOWN_MS - (Date.now() - downAt))));
    await pg.startServer();
    t.log(`PostgreSQL back after ${Date.now() - downAt} ms`);
    await waitFor(async () => (await request(api.url, 'GET', '/readyz')).status === 200, 'the API to be ready again');
    await load;

    const figures = await assertExactlyOnce(t, db, seed, workload, provider);
    t.log(`${figures.events} sends (${figures.distinct} distinct events, ${figures.paid} paid, ${figures.refunds} refunds) in ${Math.round((Date.now() - started) / 1000)} s; answers ${JSON.stringify(figures.statuses)}; reserved ${figures.reservedMicros} micro-USD`);
  } finally {
    for (const p of running.reverse()) await p.kill('SIGTERM');
    await db.destroy();
    await pg.destroy();
  }
});
