// Fault drill: the Temporal dev server stopped for 30 seconds under load and started again on its database file.
// The provider retries on a compressed schedule until every event is acknowledged; in the end every event is applied
// exactly once and the ledger is exact.
import test from 'ava';
import { runTemporalOutageDrill } from './temporal-outage.js';

test('Temporal down for 30 s under load: 503 meanwhile, then every event applied once, the ledger exact', async (t) => {
  t.timeout(8 * 60_000);
  const figures = await runTemporalOutageDrill(t, {
    subscriptions: Number(process.env.DRILL_SUBSCRIPTIONS ?? 100),
    senders: 8,
    outageMs: 30_000,
    retryScheduleMs: [1000, 2000, 5000, 10_000, 20_000, 40_000, 60_000],
  });
  t.true((figures.statuses['503'] ?? 0) > 0, 'the provider saw 503s while Temporal was away');
  t.is(figures.gaveUp, 0, 'the provider got every event acknowledged');
});
