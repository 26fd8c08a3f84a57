// The pure rules of Google Play notifications (lib/play-notification.ts): the push's notification decoded and
// refused with the field's reason, the periods a notification records from the order sequence, and the lifecycle
// events of the notification types.
import test from 'ava';
import {
  decodeNotification,
  lifecycleEvent,
  MAX_MISSED_PERIODS,
  orderIndex,
  ordersToRecord,
  periodEvents,
} from '../../lib/play-notification.js';
import { storeDirectEvent } from '../../lib/store-purchase.js';

const data = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
const base = { version: '1.0', packageName: 'com.example.app', eventTimeMillis: '1700000000000' };

test('a developer notification is decoded into exactly one kind; anything else says what is wrong', (t) => {
  t.like(decodeNotification(data({ ...base, testNotification: { version: '1.0' } })), { ok: true, kind: 'test' });
  t.like(decodeNotification(data({ ...base, subscriptionNotification: { notificationType: 2, purchaseToken: 'tok' } })), {
    ok: true,
    kind: 'subscription',
  });
  t.like(decodeNotification(data({ ...base, voidedPurchaseNotification: { purchaseToken: 'tok', orderId: 'GPA.1' } })), {
    ok: true,
    kind: 'voided',
  });
  t.like(decodeNotification(data({ ...base, oneTimeProductNotification: { notificationType: 1, purchaseToken: 'tok', sku: 'gems' } })), {
    ok: true,
    kind: 'one_time',
  });
  const refused = (d: string, reason: RegExp) => {
    const r = decodeNotification(d);
    t.regex(r.ok ? 'accepted' : r.detail, reason);
  };
  refused('%%%', /base64/);
  refused(data({ ...base, packageName: undefined, testNotification: {} }), /packageName/);
  refused(data({ ...base, eventTimeMillis: 'soon', testNotification: {} }), /eventTimeMillis/);
  refused(data({ ...base }), /exactly one/);
  refused(data({ ...base, testNotification: {}, voidedPurchaseNotification: { purchaseToken: 't', orderId: 'o' } }), /exactly one/);
  refused(data({ ...base, subscriptionNotification: { notificationType: 2, purchaseToken: 'x'.repeat(600) } }), /purchaseToken/);
  refused(data({ ...base, voidedPurchaseNotification: { purchaseToken: 'tok' } }), /orderId/);
});

test('the order sequence: the periods after the last recorded one up to the latest, in order', (t) => {
  t.deepEqual(orderIndex('GPA.1234-5678-9012-34567'), { base: 'GPA.1234-5678-9012-34567', index: -1 });
  t.deepEqual(orderIndex('GPA.1234-5678-9012-34567..12'), { base: 'GPA.1234-5678-9012-34567', index: 12 });
  t.deepEqual(ordersToRecord('GPA.1..2', ['GPA.1']), ['GPA.1..0', 'GPA.1..1', 'GPA.1..2']);
  t.deepEqual(ordersToRecord('GPA.1..2', ['GPA.1', 'GPA.1..0']), ['GPA.1..1', 'GPA.1..2']);
  t.deepEqual(ordersToRecord('GPA.1..2', ['GPA.1', 'GPA.1..2']), [], 'the latest is recorded: nothing');
  t.deepEqual(ordersToRecord('GPA.1', ['GPA.1']), []);
  t.deepEqual(ordersToRecord('GPA.1..5', []), ['GPA.1..5'], 'a subscription never recorded: only its latest period');
  t.deepEqual(ordersToRecord('GPA.1..0', ['GPA.2']), ['GPA.1..0'], 'another order chain is not this one');
  t.is(ordersToRecord('GPA.1..500', ['GPA.1']).length, MAX_MISSED_PERIODS);
  t.is(ordersToRecord('GPA.1..500', ['GPA.1']).at(-1), 'GPA.1..500');
});

test('period events copy the latest period: the first order is the initial purchase at the start, renewals priced at the event', (t) => {
  const latest = storeDirectEvent(
    {
      type: 'RENEWAL',
      transactionId: 'GPA.1..1',
      originalTransactionId: 'tok',
      eventTimestampMs: 1000,
      purchasedAtMs: 5000,
      environment: 'PRODUCTION',
      priceInPurchasedCurrency: 9.99,
      currency: 'USD',
      store: 'PLAY_STORE',
    },
    { appUserId: 'u', referralCode: null },
  );
  const events = periodEvents(latest, ['GPA.1', 'GPA.1..0', 'GPA.1..1']);
  t.deepEqual(
    events.map((e) => [e.type, e.transactionId, e.eventTimestampMs, e.purchasedAtMs, e.priceInPurchasedCurrency]),
    [
      ['INITIAL_PURCHASE', 'GPA.1', 1000, 1000, 9.99],
      ['RENEWAL', 'GPA.1..0', 1000, 5000, 9.99],
      ['RENEWAL', 'GPA.1..1', 1000, 5000, 9.99],
    ],
  );
  t.like(lifecycleEvent(3, latest, 7000), {
    type: 'CANCELLATION',
    transactionId: 'GPA.1..1',
    eventTimestampMs: 7000,
    priceInPurchasedCurrency: null,
    cancelReason: 'UNSUBSCRIBE',
  });
  t.like(lifecycleEvent(7, latest, 7000), { type: 'UNCANCELLATION' });
  t.like(lifecycleEvent(5, latest, 7000), { type: 'BILLING_ISSUE' });
  t.like(lifecycleEvent(6, latest, 7000), { type: 'BILLING_ISSUE' });
  t.like(lifecycleEvent(13, latest, 7000), { type: 'EXPIRATION' });
  for (const type of [1, 2, 4, 12, 17]) t.is(lifecycleEvent(type, latest, 7000), undefined);
});
