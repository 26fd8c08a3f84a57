// The App Store notification -> pipeline event table (lib/apple-notification.ts), pure: each notification type and
// subtype as its event, the idempotency identity it shares with the app's own report, the signed date as a state
// change's timestamp, family sharing, REVOKE and TEST.
import test from 'ava';
import { appleNotificationPlan, type AppleNotification } from '../../lib/apple-notification.js';
import { appleTransactionEvents, type AppleTransaction } from '../../lib/store-purchase.js';

const tx = (over: Partial<AppleTransaction> = {}): AppleTransaction => ({
  transactionId: '2000000000000002',
  originalTransactionId: '2000000000000001',
  productId: 'pro_monthly',
  type: 'Auto-Renewable Subscription',
  environment: 'Production',
  purchaseDate: 1_700_000_000_000,
  signedDate: 1_700_000_100_000,
  price: 9990,
  currency: 'USD',
  ...over,
});
const note = (notificationType: string, subtype?: string): AppleNotification => ({
  notificationType,
  subtype,
  notificationUUID: 'u',
  signedDate: 1_750_000_000_000,
});

const typeOf = (n: AppleNotification, t = tx(), renewal = {}) => {
  const plan = appleNotificationPlan(n, t, renewal);
  return plan.kind === 'events' ? plan.events.map((e) => e.type) : plan.kind;
};

test('each notification type maps to its event', (t) => {
  t.deepEqual(typeOf(note('SUBSCRIBED', 'INITIAL_BUY'), tx({ transactionId: '2000000000000001' })), ['INITIAL_PURCHASE']);
  t.deepEqual(typeOf(note('SUBSCRIBED', 'RESUBSCRIBE')), ['RENEWAL']);
  t.deepEqual(typeOf(note('DID_RENEW')), ['RENEWAL']);
  t.deepEqual(typeOf(note('ONE_TIME_CHARGE'), tx({ type: 'Consumable' })), ['NON_RENEWING_PURCHASE']);
  t.deepEqual(typeOf(note('DID_CHANGE_RENEWAL_PREF', 'DOWNGRADE'), tx(), { autoRenewProductId: 'basic' }), ['PRODUCT_CHANGE']);
  t.deepEqual(typeOf(note('DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_DISABLED')), ['CANCELLATION']);
  t.deepEqual(typeOf(note('DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_ENABLED')), ['UNCANCELLATION']);
  t.deepEqual(typeOf(note('DID_FAIL_TO_RENEW', 'GRACE_PERIOD')), ['BILLING_ISSUE']);
  t.deepEqual(typeOf(note('EXPIRED', 'VOLUNTARY')), ['EXPIRATION']);
  t.deepEqual(typeOf(note('GRACE_PERIOD_EXPIRED')), ['EXPIRATION']);
  t.deepEqual(typeOf(note('REFUND'), tx({ revocationDate: 1_720_000_000_000 })), ['RENEWAL', 'REFUND']);
  t.deepEqual(typeOf(note('REFUND_REVERSED')), ['REFUND_REVERSED']);
  t.is(typeOf(note('TEST'), undefined), 'test');
  t.is(typeOf(note('REVOKE')), 'ignored');
  t.is(typeOf(note('PRICE_INCREASE', 'PENDING')), 'ignored');
  t.is(typeOf(note('REFUND')), 'ignored', 'a refund without a revocation date refunds nothing');
});

test("a notified purchase has the idempotency identity of the app's report; a state change is keyed on the signed date", (t) => {
  const plan = appleNotificationPlan(note('DID_RENEW'), tx(), undefined);
  const [reported] = appleTransactionEvents(tx({ signedDate: 1_800_000_000_000 }), { appUserId: null, referralCode: null });
  if (plan.kind !== 'events') return t.fail();
  t.like(plan.events[0], {
    type: reported!.type,
    transactionId: reported!.transactionId,
    eventTimestampMs: reported!.eventTimestampMs,
    originalTransactionId: '2000000000000001',
  });
  const change = appleNotificationPlan(note('DID_CHANGE_RENEWAL_PREF'), tx(), { autoRenewProductId: 'basic' });
  if (change.kind !== 'events') return t.fail();
  t.like(change.events[0], { eventTimestampMs: 1_750_000_000_000, newProductId: 'basic', originalTransactionId: '2000000000000001' });
});

test('family sharing never earns; the account token binds; sandbox stays sandbox', (t) => {
  const plan = appleNotificationPlan(
    note('SUBSCRIBED', 'INITIAL_BUY'),
    tx({
      transactionId: '2000000000000001',
      inAppOwnershipType: 'FAMILY_SHARED',
      appAccountToken: 'a0a0a0a0-0000-5000-8000-000000000000',
      environment: 'Sandbox',
    }),
    undefined,
  );
  if (plan.kind !== 'events') return t.fail();
  t.like(plan, { accountToken: 'a0a0a0a0-0000-5000-8000-000000000000', opensConversion: true });
  t.like(plan.events[0], { familyShared: true, environment: 'SANDBOX' });
  const [own] = appleTransactionEvents(tx(), { appUserId: null, referralCode: null });
  t.is(own!.familyShared, undefined);
});
