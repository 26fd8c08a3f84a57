// Fault drill: `svc api` SIGKILLed while requests are in flight and restarted on the same port. The provider
// redelivers every event it got no 200 for (refused or reset connections included); events whose request died
// after the inbox took them are handed over by the worker's drainer or by the redelivery, once.
import test from 'ava';
import { freePort } from '../../runtime/ports.js';
import { createTestDatabase } from '../helpers/database.js';
import { finishDrill, startDrill, stopAll } from '../helpers/drill.js';
import { requireTestEnv } from '../helpers/env.js';
import { compressedSchedule } from '../helpers/provider.js';
import { startSvc, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIPTIONS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 100);

test('the API SIGKILLed mid-request and restarted: redelivered events are applied once, the ledger exact', async (t) => {
  t.timeout(6 * 60_000);
  const database = await createTestDatabase();
  const running: SvcProcess[] = [];
  try {
    const port = await freePort();
    const drill = await startDrill(
      {
        db: database.db,
        databaseUrl: database.url,
        temporalAddress: requireTestEnv().temporalAddress,
        subscriptions: SUBSCRIPTIONS,
        retryScheduleMs: compressedSchedule(300),
        apiPort: port,
      },
      running,
    );
    // Mid-request: with 8 senders there are requests in flight at any moment of the load.
    const inFlight = drill.provider.deliveries.filter((d) => !d.acknowledged).length;
    await drill.api.kill('SIGKILL');
    t.log(`API SIGKILLed after ${Date.now() - drill.started} ms with ${inFlight} deliveries unanswered`);
    await new Promise((r) => setTimeout(r, 1500));
    running.push(await startSvc('api', drill.vars, port));
    const figures = await finishDrill(t, database.db, drill);
    t.true((figures.statuses.network ?? 0) > 0, 'the kill cut requests off (the provider saw failed connections)');
  } finally {
    await stopAll(running);
    await database.drop();
  }
});
