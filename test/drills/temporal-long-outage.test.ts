// Fault drill, the one long test: the Temporal dev server stopped for 3 minutes under load while the provider's
// redelivery schedule is compressed to give up after 1 minute (its real one: 1 min, 5 min, 30 min, 2 h, 8 h, stop
// after 24 h). Events the provider gave up on exist only in the inbox: the worker's drainer must carry them over
// once Temporal is back. DRILL_LONG_OUTAGE_MS shortens the outage for local runs only (the figure is 3 min).
import test from 'ava';
import { compressedSchedule } from '../helpers/provider.js';
import { runTemporalOutageDrill } from './temporal-outage.js';

const OUTAGE_MS = Number(process.env.DRILL_LONG_OUTAGE_MS ?? 180_000);
const GIVE_UP_AFTER_MS = 60_000;

test(
  'Temporal down for 3 min, the provider giving up after 1 min: the ' +
    'inbox carries the events, every one applied once, the ledger exact',
  async (t) => {
    t.timeout(OUTAGE_MS + 8 * 60_000);
    const figures = await runTemporalOutageDrill(t, {
      subscriptions: Number(process.env.DRILL_SUBSCRIPTIONS ?? 100),
      senders: 16,
      outageMs: OUTAGE_MS,
      // 24 hours compressed into one minute.
      retryScheduleMs: compressedSchedule(1440),
      giveUpAfterMs: GIVE_UP_AFTER_MS,
    });
    t.true(figures.gaveUp > 0, 'the provider gave up on events during the outage');
    t.true(figures.waitingAtRestart > 0, 'events were waiting in the inbox when Temporal came back');
  },
);
