// lib/store-purchase.ts: the proof's identity and the stores' verified answers as pipeline events (labelled rows).
import test from 'ava';
import { gateRefusalDetail } from '../../errors/store-direct-refusals.js';
import { conversionKeyOf, idempotencyKey } from '../../lib/purchase-event.js';
import {
  androidProofIdentity,
  appleTransactionEvents,
  claimedTransactionId,
  googleProductEvents,
  googleSubscriptionEvents,
  proofHash,
  storeDirectGate,
  type AppleTransaction,
} from '../../lib/store-purchase.js';

const ctx = { appUserId: 'u1', referralCode: 'CODE1' };
const DAY = 86_400_000;
const tx = (f: Partial<AppleTransaction>): AppleTransaction => ({
  transactionId: '20',
  originalTransactionId: '20',
  productId: 'pro',
  type: 'Auto-Renewable Subscription',
  environment: 'Production',
  purchaseDate: 1_700_000_000_000,
  signedDate: 1_700_000_100_000,
  price: 9990,
  currency: 'EUR',
  ...f,
});

test('the proof hash names the platform and the transaction identity, never the JWS bytes', (t) => {
  t.is(proofHash('ios', '20'), proofHash('ios', '20'));
  t.not(proofHash('ios', '20'), proofHash('android', '20'));
  t.regex(proofHash('ios', '20'), /^[0-9a-f]{64}$/);
  t.not(androidProofIdentity('tok', undefined), androidProofIdentity('tok', 'coins'));
  const jws = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
  t.is(
    claimedTransactionId(jws({ transactionId: '20', signedDate: 1 })),
    claimedTransactionId(jws({ transactionId: '20', signedDate: 2 })),
  );
  t.is(claimedTransactionId('garbage'), undefined);
});

test('App Store: product types, environments, prices and dates', (t) => {
  const rows: [string, Partial<AppleTransaction>, Record<string, unknown>][] = [
    [
      'original subscription transaction',
      {},
      { type: 'INITIAL_PURCHASE', environment: 'PRODUCTION', priceInPurchasedCurrency: 9.99, currency: 'EUR', periodType: 'NORMAL' },
    ],
    [
      'later transaction of the subscription',
      { transactionId: '21' },
      { type: 'RENEWAL', transactionId: '21', originalTransactionId: '20' },
    ],
    [
      'consumable',
      { type: 'Consumable', transactionId: '30', originalTransactionId: '30' },
      { type: 'NON_RENEWING_PURCHASE', originalTransactionId: '30' },
    ],
    ['non-consumable', { type: 'Non-Consumable' }, { type: 'NON_RENEWING_PURCHASE' }],
    [
      'non-renewing subscription',
      { type: 'Non-Renewing Subscription', transactionId: '31', originalTransactionId: '29' },
      { type: 'NON_RENEWING_PURCHASE', originalTransactionId: '31' },
    ],
    ['sandbox', { environment: 'Sandbox' }, { environment: 'SANDBOX' }],
    ['Xcode (unsigned) is sandbox', { environment: 'Xcode' }, { environment: 'SANDBOX' }],
    ['LocalTesting (unsigned) is sandbox', { environment: 'LocalTesting' }, { environment: 'SANDBOX' }],
    ['free trial', { offerType: 1, offerDiscountType: 'FREE_TRIAL', price: 0 }, { periodType: 'TRIAL', priceInPurchasedCurrency: 0 }],
    ['the purchase date, not signedDate, is the event time', {}, { eventTimestampMs: 1_700_000_000_000, purchasedAtMs: 1_700_000_000_000 }],
  ];
  for (const [label, fields, expected] of rows) {
    const events = appleTransactionEvents(tx(fields), ctx);
    t.is(events.length, 1, label);
    t.like(events[0], { source: 'store_direct', store: 'APP_STORE', appUserId: 'u1', referralCode: 'CODE1', ...expected }, label);
  }
  const resigned = appleTransactionEvents(tx({ signedDate: 1_700_009_000_000 }), ctx)[0]!;
  t.is(
    idempotencyKey('app', resigned),
    idempotencyKey('app', appleTransactionEvents(tx({}), ctx)[0]!),
    'a re-signed copy is the same event',
  );
  t.is(conversionKeyOf(appleTransactionEvents(tx({ transactionId: '22' }), ctx)[0]!), '20', 'renewals attach to the original transaction');
});

test('App Store: a revocationDate is a refund of that transaction, after its purchase', (t) => {
  const events = appleTransactionEvents(tx({ revocationDate: 1_700_000_000_000 + DAY }), ctx);
  t.deepEqual(
    events.map((e) => e.type),
    ['INITIAL_PURCHASE', 'REFUND'],
  );
  t.like(events[1], {
    transactionId: '20',
    originalTransactionId: '20',
    eventTimestampMs: 1_700_000_000_000 + DAY,
    priceInPurchasedCurrency: null,
  });
  const oneTime = appleTransactionEvents(
    tx({ type: 'Consumable', transactionId: '40', originalTransactionId: '40', revocationDate: 5 }),
    ctx,
  );
  t.is(conversionKeyOf(oneTime[1]!), '40');
});

test('Google Play subscriptions: latest paid order, renewals by order suffix, test purchases sandbox, pending 409', (t) => {
  const sub = (f: object = {}) => ({
    subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
    startTime: '2026-11-01T10:00:00Z',
    lineItems: [
      {
        productId: 'pro',
        latestSuccessfulOrderId: 'GPA.1111-2222-3333-44444',
        expiryTime: '2026-12-01T10:00:00Z',
        autoRenewingPlan: { recurringPrice: { currencyCode: 'EUR', units: '4', nanos: 990_000_000 } },
      },
    ],
    ...f,
  });
  const first = googleSubscriptionEvents(sub(), 'tok', Date.parse('2026-11-05T00:00:00Z'), ctx);
  t.true(first.ok);
  if (first.ok) {
    t.like(first.events[0], {
      type: 'INITIAL_PURCHASE',
      transactionId: 'GPA.1111-2222-3333-44444',
      originalTransactionId: 'tok',
      environment: 'PRODUCTION',
      priceInPurchasedCurrency: 4.99,
      currency: 'EUR',
      store: 'PLAY_STORE',
      eventTimestampMs: Date.parse('2026-11-01T10:00:00Z'),
    });
    t.is(conversionKeyOf(first.events[0]!), 'tok');
  }
  const renewal = googleSubscriptionEvents(
    sub({ lineItems: [{ ...sub().lineItems[0], latestSuccessfulOrderId: 'GPA.1111-2222-3333-44444..0' }] }),
    'tok',
    9,
    ctx,
  );
  t.true(renewal.ok && renewal.events[0]!.type === 'RENEWAL' && renewal.events[0]!.purchasedAtMs === 9);
  const test_ = googleSubscriptionEvents(sub({ testPurchase: {} }), 'tok', 9, ctx);
  t.true(test_.ok && test_.events[0]!.environment === 'SANDBOX');
  t.like(googleSubscriptionEvents(sub({ subscriptionState: 'SUBSCRIPTION_STATE_PENDING' }), 'tok', 9, ctx), {
    ok: false,
    type: 'StorePurchaseNotPurchased',
  });
});

test(
  'Google Play one-time products: order id is the key, price as ' + 'sent, test purchases sandbox, not purchased 409, voided a refund',
  (t) => {
    const p = { purchaseState: 0, orderId: 'GPA.9', purchaseTimeMillis: '1763719200000', productId: 'coins' };
    const report = { ...ctx, productId: 'coins', price: 4.99, currency: 'eur' };
    const bought = googleProductEvents(p, 'tok', report, false);
    t.true(bought.ok);
    if (bought.ok)
      t.like(bought.events[0], {
        type: 'NON_RENEWING_PURCHASE',
        transactionId: 'GPA.9',
        priceInPurchasedCurrency: 4.99,
        currency: 'EUR',
        environment: 'PRODUCTION',
        eventTimestampMs: 1763719200000,
      });
    if (bought.ok) t.is(conversionKeyOf(bought.events[0]!), 'GPA.9');
    const sandbox = googleProductEvents({ ...p, purchaseType: 0 }, 'tok', report, false);
    t.true(sandbox.ok && sandbox.events[0]!.environment === 'SANDBOX');
    t.like(googleProductEvents({ ...p, purchaseState: 2 }, 'tok', report, false), { ok: false, type: 'StorePurchaseNotPurchased' });
    t.like(googleProductEvents({ ...p, purchaseState: 1 }, 'tok', report, false), { ok: false, type: 'StorePurchaseNotPurchased' });
    const voided = googleProductEvents({ ...p, purchaseState: 1 }, 'tok', report, true);
    t.true(voided.ok && voided.events[0]!.type === 'REFUND' && voided.events[0]!.transactionId === 'GPA.9');
  },
);

test('the store-direct gate: switched to the store verifier, credential and store id present, iOS with trusted roots', (t) => {
  const ios = { provider: 'app_store', credentialPresent: true, bundleId: 'com.example', packageName: null };
  const android = { provider: 'google_play', credentialPresent: true, bundleId: null, packageName: 'com.example.app' };
  const refusal = (platform: 'ios' | 'android', gate: ReturnType<typeof storeDirectGate>) =>
    gate.ok ? 'open' : gateRefusalDetail('app_1', platform, gate);
  t.deepEqual(storeDirectGate('ios', ios, true), { ok: true, storeId: 'com.example' });
  t.deepEqual(storeDirectGate('android', android, false), { ok: true, storeId: 'com.example.app' });
  t.deepEqual(storeDirectGate('ios', undefined, true), { ok: false, switched: false });
  t.regex(refusal('ios', storeDirectGate('ios', { ...ios, provider: 'subprovider' }, true)), /not switched to store-direct.*app_1/);
  t.regex(refusal('ios', storeDirectGate('ios', ios, false)), /APPLE_ROOT_CERTS/);
  t.regex(refusal('android', storeDirectGate('android', { ...android, credentialPresent: false }, true)), /service account is missing/);
  t.regex(refusal('android', storeDirectGate('android', { ...android, packageName: null }, true)), /service account is missing/);
});
