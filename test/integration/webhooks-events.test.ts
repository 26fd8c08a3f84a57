// POST /api/webhooks/subprovider/{app_id}: every conversion event type through the real pipeline (API ->
// update-with-start -> conversion workflow -> activity -> PostgreSQL), spec "Events" and "States and transitions".
// Prices at the seeded 30% commission and the default 10% platform fee: 9.99 -> 3.00 + 0.30 reserved.
import test, { type ExecutionContext } from 'ava';
import { commissionsOf, conversionsOfUser, reservedForConversion, ledgerEntriesOf } from '../helpers/conversions.js';
import type { JsonResponse } from '../helpers/http.js';
import { sendWebhook, subscription, type ProviderBody } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

/** commission_micros + platform_fee_micros of a paid price at 30% and a 10% fee. */
const RESERVE = { '4.99': 1_650_000, '9.99': 3_300_000, '14.99': 4_950_000, '19.99': 6_600_000, '59.99': 19_800_000 };

async function send(t: ExecutionContext, body: ProviderBody): Promise<JsonResponse> {
  const res = await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
  t.is(res.status, 200, res.text);
  t.falsy(res.body.error, `${body.event.type}: ${res.text}`);
  return res;
}

async function onlyConversion(t: ExecutionContext, user: string) {
  const rows = await conversionsOfUser(h().db, seed.app_id, user);
  t.is(rows.length, 1);
  return rows[0];
}

test('INITIAL_PURCHASE with svc_code: a paid purchase creates an attributed conversion that earns and reserves', async (t) => {
  const sub = subscription('ev-paid', seed.creator_code);
  const initial = sub('initial_purchase');
  const res = await send(t, initial);
  t.deepEqual(Object.keys(res.body).sort(), ['event_id', 'received']);
  const c = await onlyConversion(t, 'ev-paid');
  t.like(c, {
    attributed: true,
    referral_code: seed.creator_code,
    campaign_id: seed.campaign_id,
    attribution_method: 'purchase_code',
    status: 'active',
    kind: 'subscription',
    billing_cycles: 1,
    product_id: 'pro_monthly',
    environment: 'PRODUCTION',
    conversion_key: initial.event.original_transaction_id,
  });
  const commissions = await commissionsOf(h().db, c.id);
  t.is(commissions.length, 1);
  t.like(commissions[0], {
    kind: 'earn',
    status: 'reserved',
    revenue_usd_micros: 9_990_000,
    commission_micros: 3_000_000,
    platform_fee_micros: 300_000,
  });
  t.is(await reservedForConversion(h().db, c.id), RESERVE['9.99']);
  const event = await h().db('purchase_events').where('id', res.body.event_id).first();
  t.like(event, {
    event_type: 'INITIAL_PURCHASE',
    processing_status: 'processed',
    conversion_id: c.id,
    attributed: true,
    organic: false,
    referral_code: seed.creator_code,
  });
});

test('INITIAL_PURCHASE trial: trialing without commission until a RENEWAL with is_trial_conversion converts it and earns', async (t) => {
  const sub = subscription('ev-trial', seed.creator_code);
  await send(t, sub('initial_purchase_trial'));
  const trial = await onlyConversion(t, 'ev-trial');
  t.like(trial, { attributed: true, status: 'trialing', trial: true, billing_cycles: 0, trial_converted_at: null });
  t.is((await commissionsOf(h().db, trial.id)).length, 0);
  t.is(await reservedForConversion(h().db, trial.id), 0);

  await send(t, sub('renewal_trial_conversion'));
  const converted = await onlyConversion(t, 'ev-trial');
  t.like(converted, { status: 'active', billing_cycles: 1 });
  t.truthy(converted.trial_converted_at);
  const commissions = await commissionsOf(h().db, trial.id);
  t.is(commissions.length, 1);
  t.like(commissions[0], { kind: 'earn', status: 'reserved', commission_micros: 3_000_000 });
  t.is(await reservedForConversion(h().db, trial.id), RESERVE['9.99']);
});

test('RENEWAL: every paid renewal earns at its own price and increments billing_cycles', async (t) => {
  const sub = subscription('ev-renew', seed.creator_code);
  await send(t, sub('initial_purchase'));
  await send(t, sub('renewal'));
  await send(t, sub('renewal', { price: 19.99 }));
  const c = await onlyConversion(t, 'ev-renew');
  t.like(c, { status: 'active', billing_cycles: 3 });
  const commissions = await commissionsOf(h().db, c.id);
  t.deepEqual(
    commissions.map((x) => [x.kind, x.status, x.commission_micros, x.platform_fee_micros]),
    [
      ['earn', 'reserved', 3_000_000, 300_000],
      ['earn', 'reserved', 3_000_000, 300_000],
      ['earn', 'reserved', 6_000_000, 600_000],
    ],
  );
  t.is(await reservedForConversion(h().db, c.id), 2 * RESERVE['9.99'] + RESERVE['19.99']);
});

test('NON_RENEWING_PURCHASE: each one-time purchase is its own conversion (kind one_time) with its own commission', async (t) => {
  const sub = subscription('ev-one-time', seed.creator_code);
  const oneTime = (price: number) => {
    const body = sub('non_renewing_purchase', { price });
    body.event.original_transaction_id = body.event.transaction_id; // a one-time purchase is its own store identity
    return body;
  };
  const first = oneTime(4.99);
  const second = oneTime(14.99);
  await send(t, first);
  await send(t, second);
  const rows = await conversionsOfUser(h().db, seed.app_id, 'ev-one-time');
  t.deepEqual(
    rows.map((c) => [c.conversion_key, c.kind, c.attributed, c.status, c.product_id]).sort(),
    [
      [first.event.transaction_id, 'one_time', true, 'active', 'coins_500'],
      [second.event.transaction_id, 'one_time', true, 'active', 'coins_500'],
    ].sort(),
  );
  const byKey = new Map(rows.map((c) => [c.conversion_key, c.id]));
  t.deepEqual(
    (await commissionsOf(h().db, byKey.get(first.event.transaction_id))).map((x) => x.commission_micros),
    [1_500_000],
  );
  t.deepEqual(
    (await commissionsOf(h().db, byKey.get(second.event.transaction_id))).map((x) => x.commission_micros),
    [4_500_000],
  );
});

test('CANCELLATION marks the conversion cancelled and keeps the earned commission; UNCANCELLATION makes it active', async (t) => {
  const sub = subscription('ev-cancel', seed.creator_code);
  await send(t, sub('initial_purchase'));
  await send(t, sub('cancellation'));
  const cancelled = await onlyConversion(t, 'ev-cancel');
  t.is(cancelled.status, 'cancelled');
  t.truthy(cancelled.cancelled_at);
  const commissions = await commissionsOf(h().db, cancelled.id);
  t.deepEqual(
    commissions.map((x) => [x.kind, x.status]),
    [['earn', 'reserved']],
  );
  t.is(await reservedForConversion(h().db, cancelled.id), RESERVE['9.99']);

  await send(t, sub('uncancellation'));
  const active = await onlyConversion(t, 'ev-cancel');
  t.like(active, { status: 'active', cancelled_at: null });
  t.is(await reservedForConversion(h().db, cancelled.id), RESERVE['9.99']);
});

test('EXPIRATION marks the conversion churned; a RENEWAL after that earns nothing and the earned commission stays', async (t) => {
  const sub = subscription('ev-expire', seed.creator_code);
  await send(t, sub('initial_purchase'));
  await send(t, sub('expiration'));
  const churned = await onlyConversion(t, 'ev-expire');
  t.is(churned.status, 'churned');
  t.truthy(churned.churned_at);

  await send(t, sub('renewal'));
  const after = await onlyConversion(t, 'ev-expire');
  t.is(after.status, 'churned');
  const commissions = await commissionsOf(h().db, churned.id);
  t.deepEqual(
    commissions.map((x) => [x.kind, x.status, x.commission_micros]),
    [['earn', 'reserved', 3_000_000]],
  );
  t.is(await reservedForConversion(h().db, churned.id), RESERVE['9.99']);
});

test('PRODUCT_CHANGE updates the product to new_product_id; the next RENEWAL price sets the commission', async (t) => {
  const sub = subscription('ev-product', seed.creator_code);
  await send(t, sub('initial_purchase'));
  await send(t, sub('product_change'));
  const changed = await onlyConversion(t, 'ev-product');
  t.is(changed.product_id, 'pro_yearly');
  t.is((await commissionsOf(h().db, changed.id)).length, 1, 'a product change earns nothing by itself');

  await send(t, sub('renewal', { product_id: 'pro_yearly', price: 59.99 }));
  const renewed = await onlyConversion(t, 'ev-product');
  t.like(renewed, { product_id: 'pro_yearly', billing_cycles: 2, status: 'active' });
  const commissions = await commissionsOf(h().db, changed.id);
  t.like(commissions[1], {
    kind: 'earn',
    status: 'reserved',
    revenue_usd_micros: 59_990_000,
    commission_micros: 18_000_000,
    platform_fee_micros: 1_800_000,
  });
  t.is(await reservedForConversion(h().db, changed.id), RESERVE['9.99'] + RESERVE['59.99']);
});

test('BILLING_ISSUE is logged on the conversion; a later paid RENEWAL makes it active again', async (t) => {
  const sub = subscription('ev-billing', seed.creator_code);
  await send(t, sub('initial_purchase'));
  const issue = await send(t, sub('billing_issue'));
  const c = await onlyConversion(t, 'ev-billing');
  t.is(c.status, 'billing_issue');
  t.truthy(c.billing_issue_at);
  t.like(await h().db('purchase_events').where('id', issue.body.event_id).first(), {
    event_type: 'BILLING_ISSUE',
    conversion_id: c.id,
    processing_status: 'processed',
  });
  t.is((await commissionsOf(h().db, c.id)).length, 1);

  await send(t, sub('renewal'));
  t.like(await onlyConversion(t, 'ev-billing'), { status: 'active', billing_cycles: 2 });
  t.is((await commissionsOf(h().db, c.id)).length, 2);
});

test('REFUND reverses the commission of the refunded transaction (not the latest) and releases exactly its reservation', async (t) => {
  const sub = subscription('ev-refund', seed.creator_code);
  await send(t, sub('initial_purchase'));
  const refunded = sub('renewal', { price: 14.99 });
  await send(t, refunded);
  await send(t, sub('renewal', { price: 19.99 }));
  await send(t, sub('refund', { transaction_id: refunded.event.transaction_id, price: -14.99 }));

  const c = await onlyConversion(t, 'ev-refund');
  t.is(c.status, 'refunded');
  t.truthy(c.refunded_at);
  const commissions = await commissionsOf(h().db, c.id);
  const earns = commissions.filter((x) => x.kind === 'earn');
  t.deepEqual(
    earns.map((x) => [x.commission_micros, x.status]),
    [
      [3_000_000, 'reserved'],
      [4_500_000, 'reversed'],
      [6_000_000, 'reserved'],
    ],
  );
  const reversal = commissions.find((x) => x.kind === 'reversal');
  t.like(reversal, {
    reverses_commission_id: earns[1].id,
    revenue_usd_micros: -14_990_000,
    commission_micros: -4_500_000,
    platform_fee_micros: -450_000,
  });
  const ledger = await ledgerEntriesOf(h().db, [earns[1].id]);
  t.deepEqual(
    ledger.map((e) => [e.entry_type, e.reserved_delta_micros]),
    [
      ['reserve', RESERVE['14.99']],
      ['reversal', -RESERVE['14.99']],
    ],
  );
  t.is(await reservedForConversion(h().db, c.id), RESERVE['9.99'] + RESERVE['19.99']);
});

test("CANCELLATION with cancel_reason CUSTOMER_SUPPORT and a negative price is that transaction's refund", async (t) => {
  const sub = subscription('ev-support', seed.creator_code);
  await send(t, sub('initial_purchase'));
  const renewal = sub('renewal', { price: 14.99 });
  await send(t, renewal);
  await send(t, sub('refund_customer_support', { transaction_id: renewal.event.transaction_id, price: -14.99 }));

  const c = await onlyConversion(t, 'ev-support');
  t.is(c.status, 'refunded');
  const earns = (await commissionsOf(h().db, c.id)).filter((x) => x.kind === 'earn');
  t.deepEqual(
    earns.map((x) => [x.commission_micros, x.status]),
    [
      [3_000_000, 'reserved'],
      [4_500_000, 'reversed'],
    ],
  );
  t.is(await reservedForConversion(h().db, c.id), RESERVE['9.99']);
});

test(
  'a refund reported twice for one transaction (REFUND, then ' + 'CUSTOMER_SUPPORT cancellation) reverses only that transaction',
  async (t) => {
    const sub = subscription('ev-refund-twice', seed.creator_code);
    await send(t, sub('initial_purchase'));
    const renewal = sub('renewal', { price: 14.99 });
    await send(t, renewal);
    await send(t, sub('refund', { transaction_id: renewal.event.transaction_id, price: -14.99 }));
    await send(t, sub('refund_customer_support', { transaction_id: renewal.event.transaction_id, price: -14.99 }));

    const c = await onlyConversion(t, 'ev-refund-twice');
    const commissions = await commissionsOf(h().db, c.id);
    t.deepEqual(
      commissions.filter((x) => x.kind === 'earn').map((x) => [x.commission_micros, x.status]),
      [
        [3_000_000, 'reserved'],
        [4_500_000, 'reversed'],
      ],
    );
    t.is(commissions.filter((x) => x.kind === 'reversal').length, 1);
    t.is(await reservedForConversion(h().db, c.id), RESERVE['9.99']);
  },
);

test('REFUND_REVERSED restores the refunded commission: a new earn, reserved again, conversion active', async (t) => {
  const sub = subscription('ev-restore', seed.creator_code);
  const initial = sub('initial_purchase');
  await send(t, initial);
  await send(t, sub('refund', { transaction_id: initial.event.transaction_id }));
  const refunded = await onlyConversion(t, 'ev-restore');
  t.is(refunded.status, 'refunded');
  t.is(await reservedForConversion(h().db, refunded.id), 0);

  await send(t, sub('refund_reversed', { transaction_id: initial.event.transaction_id }));
  const restored = await onlyConversion(t, 'ev-restore');
  t.like(restored, { status: 'active', refunded_at: null });
  const commissions = await commissionsOf(h().db, restored.id);
  t.deepEqual(
    commissions.map((x) => [x.kind, x.status, x.commission_micros]),
    [
      ['earn', 'reversed', 3_000_000],
      ['reversal', 'reversed', -3_000_000],
      ['earn', 'reserved', 3_000_000],
    ],
  );
  const ledger = await ledgerEntriesOf(
    h().db,
    commissions.filter((x) => x.kind === 'earn').map((x) => x.id),
  );
  t.deepEqual(
    ledger.map((e) => [e.entry_type, e.reserved_delta_micros]),
    [
      ['reserve', RESERVE['9.99']],
      ['reversal', -RESERVE['9.99']],
      ['reserve', RESERVE['9.99']],
    ],
  );
  t.is(await reservedForConversion(h().db, restored.id), RESERVE['9.99']);
});

test('an event for a subscription never opened (CANCELLATION first) is logged without creating a conversion', async (t) => {
  const sub = subscription('ev-orphan', seed.creator_code);
  const res = await send(t, sub('cancellation'));
  t.is((await conversionsOfUser(h().db, seed.app_id, 'ev-orphan')).length, 0);
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
    event_type: 'CANCELLATION',
    conversion_id: null,
    processing_status: 'processed',
  });
});
