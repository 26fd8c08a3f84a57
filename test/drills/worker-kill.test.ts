// Fault drill: `svc worker` SIGKILLed under load and restarted (production shape: `svc api` and `svc worker` as
// separate processes on the run's PostgreSQL and Temporal). The provider redelivers whatever was not answered 200;
// in the end every event is applied exactly once and the ledger is exact.
import test from 'ava';
import { createTestDatabase } from '../helpers/database.js';
import { finishDrill, startDrill, stopAll } from '../helpers/drill.js';
import { requireTestEnv } from '../helpers/env.js';
import { compressedSchedule } from '../helpers/provider.js';
import { startSvc, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIPTIONS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 100);

test('a worker SIGKILLed under load and restarted: every event applied once, the ledger exact', async (t) => {
  t.timeout(6 * 60_000);
  const database = await createTestDatabase();
  const running: SvcProcess[] = [];
  try {
    const drill = await startDrill(
      {
        db: database.db,
        databaseUrl: database.url,
        temporalAddress: requireTestEnv().temporalAddress,
        subscriptions: SUBSCRIPTIONS,
        retryScheduleMs: compressedSchedule(300),
      },
      running,
    );
    await drill.worker.kill('SIGKILL');
    t.log(`worker SIGKILLed after ${Date.now() - drill.started} ms`);
    await new Promise((r) => setTimeout(r, 2000));
    running.push(await startSvc('worker', drill.vars));
    await finishDrill(t, database.db, drill);
  } finally {
    await stopAll(running);
    await database.drop();
  }
});
