// The purchase activity's round trips (docs/benchmarks.md "Speed of the purchase pipeline"): each event is one transaction of a
// fixed number of statements, BEGIN and COMMIT included, and the conversion's change rides on the statement that
// records the event's outcome. Counted on a connection of its own, so nothing else is counted; the answers and the
// rows written show that the statements saved did not drop any work.
import test from 'ava';
import { createPurchaseActivities } from '../../activities/purchases/index.js';
import { idempotencyKey, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import { createDb } from '../../runtime/db.js';
import { fundGenerously } from '../helpers/provider.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { subscription, type ProviderBody } from '../helpers/subprovider-events.js';

const { h, seed } = useSeededHarness(test, { worker: false, api: false });

test(
  'statements per event: initial purchase 13, renewal 7, ' + 'cancellation 5, refund 12; status and last event written with the outcome',
  async (t) => {
    await fundGenerously(h().db, seed.org_id);
    const db = createDb(h().database.url, 1);
    t.teardown(() => db.destroy());
    const statements: string[] = [];
    db.on('query', (q: { sql: string }) => {
      statements.push(q.sql);
    });
    const activities = createPurchaseActivities({ db, platformFeePercent: 10 });
    const apply = async (body: ProviderBody) => {
      statements.length = 0;
      const event = normalizeSubproviderEvent(body, Date.now());
      const result = await activities.applyPurchaseEvent({
        appId: seed.app_id,
        conversionKey: event.originalTransactionId!,
        idempotencyKey: idempotencyKey(seed.app_id, event),
        event,
      });
      return { result, count: statements.length, first: statements[0], last: statements.at(-1) };
    };

    const sub = subscription('statements-1', seed.creator_code);
    const purchase = sub('initial_purchase');
    const initial = await apply(purchase);
    t.is(
      initial.count,
      13,
      'lock and read the user, the code, write the attribution and the conversion, the terms, ' +
        'the fraud-signal facts (one read, before the organization lock), the earn',
    );
    t.is(initial.result.status, 'active');
    t.is(initial.first, 'BEGIN;');
    t.is(initial.last, 'COMMIT;');

    const renewal = await apply(sub('renewal'));
    t.is(
      renewal.count,
      7,
      'BEGIN, the event, the conversion with its terms (locked), the fraud-signal facts, the earn, the outcome with the conversion, COMMIT',
    );
    t.is(renewal.result.status, 'active');

    const cancellation = await apply(sub('cancellation'));
    t.is(cancellation.count, 5);
    t.is(cancellation.result.status, 'cancelled', 'the answer carries the status the outcome statement wrote');

    const refund = await apply(sub('refund', { transaction_id: purchase.event.transaction_id, price: -9.99 }));
    t.is(refund.count, 12, 'the organization lock, the commission taken back with its reservation, the awards now out of reach (one read)');
    t.is(refund.result.status, 'refunded');

    const conversion = await h().db('conversions').where({ app_id: seed.app_id, app_user_id: 'statements-1' }).first();
    t.like(conversion, { status: 'refunded', billing_cycles: 2, last_event_type: 'REFUND' });
    t.truthy(conversion.cancelled_at, "the cancellation's change was written with its outcome");
    t.truthy(conversion.refunded_at);
    const events = await h()
      .db('purchase_events')
      .where({ app_id: seed.app_id, app_user_id: 'statements-1' })
      .orderBy('event_timestamp_ms')
      .pluck('processing_status');
    t.deepEqual(events, ['processed', 'processed', 'processed', 'processed']);
  },
);
