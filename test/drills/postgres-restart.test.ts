// Fault drill: PostgreSQL restarted under load (a private embedded server of this test, stopped and started again
// on its data directory; `svc api` and `svc worker` are separate processes). While it is down every surface answers
// 503 with `{"detail"}`, never 500; afterwards every event is applied exactly once and the ledger is exact.
import test from 'ava';
import { createDb } from '../../runtime/db.js';
import { requireTestEnv } from '../helpers/env.js';
import { request, type JsonResponse } from '../helpers/http.js';
import { finishDrill, startDrill, stopAll } from '../helpers/drill.js';
import { compressedSchedule } from '../helpers/provider.js';
import { startPrivatePostgres, waitFor, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIPTIONS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 100);
const DOWN_MS = 5000;

test(
  'PostgreSQL restarted under load: 503 with detail on every ' + 'surface meanwhile, then every event applied once, the ledger exact',
  async (t) => {
    t.timeout(6 * 60_000);
    const pg = await startPrivatePostgres();
    const db = createDb(pg.url, 4);
    const running: SvcProcess[] = [];
    try {
      const drill = await startDrill(
        {
          db,
          databaseUrl: pg.url,
          temporalAddress: requireTestEnv().temporalAddress,
          subscriptions: SUBSCRIPTIONS,
          retryScheduleMs: compressedSchedule(300),
        },
        running,
      );
      const { api, seed, workload, started } = drill;

      await pg.stopServer();
      const downAt = Date.now();
      t.log(`PostgreSQL stopped after ${downAt - started} ms`);
      // Every surface while the database is away: 503 and a JSON detail.
      const probes: [string, () => Promise<JsonResponse>][] = [
        [
          'sdk init',
          () =>
            request(api.url, 'POST', '/api/sdk/init', {
              token: seed.sdk_key,
              body: { platform: 'ios', sdk_version: '1.0.0', app_version: '1.0' },
            }),
        ],
        ['agent whoami', () => request(api.url, 'GET', '/api/agent/whoami', { token: seed.agent_key })],
        ['agent wallet', () => request(api.url, 'GET', '/api/agent/wallet', { token: seed.agent_key })],
        [
          'webhook',
          () =>
            request(api.url, 'POST', `/api/webhooks/subprovider/${seed.app_id}`, {
              token: seed.webhook_secret,
              body: workload.subscriptions[0]![0],
            }),
        ],
        [
          'public join',
          () => request(api.url, 'POST', `/api/public/campaigns/${seed.campaign_id}/join`, { body: { name: 'P', email: 'p@example.com' } }),
        ],
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
      await finishDrill(t, db, drill);
    } finally {
      await stopAll(running);
      await db.destroy();
      await pg.destroy();
    }
  },
);
