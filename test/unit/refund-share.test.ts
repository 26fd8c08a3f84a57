// lib/refund-share.ts: a partial refund's share of a transaction and what of its commission it takes back or a
// refund reversal gives back, in exact micros (labelled rows), and the App Store transaction's partial REFUND event.
import test from 'ava';
import { idempotencyKey } from '../../lib/purchase-event.js';
import {
  appleRefundShare,
  isWholeShare,
  planTakeBack,
  shareOfMicros,
  standing,
  stillToTakeBack,
  toRestore,
  type CommissionMoney,
} from '../../lib/refund-share.js';
import { appleTransactionEvents } from '../../lib/store-purchase.js';

// A $9.99 purchase at 30% commission and a 10% platform fee (lib/commission.ts: $3.00 and $0.30, whole cents).
const BASE: CommissionMoney = { revenueMicros: 9_990_000, commissionMicros: 3_000_000, platformFeeMicros: 300_000 };
const share = (refunded: number) => ({ refunded, of: 100_000 });
const money = (revenueMicros: number, commissionMicros: number, platformFeeMicros: number): CommissionMoney => ({
  revenueMicros,
  commissionMicros,
  platformFeeMicros,
});

test('the App Store share: revocationPercentage in milliunits; REFUND_FULL, none or 100% is the whole transaction', (t) => {
  const rows: [string, Parameters<typeof appleRefundShare>[0], ReturnType<typeof appleRefundShare>][] = [
    ['prorated 50%', { revocationType: 'REFUND_PRORATED', revocationPercentage: 50_000 }, share(50_000)],
    [
      '1 of 3 units (Apple rounds the share of the whole quantity)',
      { revocationType: 'REFUND_PRORATED', revocationPercentage: 33_333 },
      share(33_333),
    ],
    ['a percentage without a type', { revocationPercentage: 67_932 }, share(67_932)],
    ['full', { revocationType: 'REFUND_FULL', revocationPercentage: 100_000 }, undefined],
    ['100% prorated', { revocationType: 'REFUND_PRORATED', revocationPercentage: 100_000 }, undefined],
    ['no percentage (older payloads)', {}, undefined],
    ['not an integer', { revocationPercentage: 12.5 }, undefined],
  ];
  for (const [label, tx, expected] of rows) t.deepEqual(appleRefundShare(tx), expected, label);
  t.true(isWholeShare(undefined));
  t.false(isWholeShare(share(99_999)));
});

test('a share of micros is rounded once, half away from zero, exactly', (t) => {
  const rows: [number, number, number][] = [
    [2_997_000, 33_333, 998_990], // 998,990.01
    [299_700, 33_333, 99_899], // 99,898.999
    [9_990_000, 33_333, 3_329_967], // 3,329,966.67
    [3, 50_000, 2], // 1.5 -> 2
    [-3, 50_000, -2],
    [1_000_000_000_000_000, 15, 150_000_000_000], // a billion dollars: exact past 2^53 in the product
    [2_997_000, 100_000, 2_997_000],
    [2_997_000, 0, 0],
  ];
  for (const [micros, milli, expected] of rows) t.is(shareOfMicros(micros, share(milli)), expected, `${micros} x ${milli}`);
  // Money shares in cents: 25% of $10.00 commission of a $39.99 purchase, a third of $10.00, half of $0.01.
  const cents: [number, number, number][] = [
    [10_000_000, 25_000, 2_500_000],
    [10_000_000, 33_333, 3_330_000], // 3.3333
    [10_000, 50_000, 10_000], // half a cent away from zero
    [-10_000, 50_000, -10_000],
    [1_000_000, 12_345, 120_000], // 0.12345
  ];
  for (const [micros, milli, expected] of cents)
    t.is(shareOfMicros(micros, share(milli), 10_000), expected, `${micros} x ${milli} in cents`);
});

test('what a cumulative share takes back: the difference to what stands, never below zero, never past the whole', (t) => {
  const first = stillToTakeBack(BASE, BASE, share(33_333));
  // Revenue to the micro (it moves no money), commission 0.99999 and fee 0.099999 to the cent.
  t.deepEqual(first, money(3_329_967, 1_000_000, 100_000));
  const after = {
    ...BASE,
    revenueMicros: BASE.revenueMicros - first.revenueMicros,
    commissionMicros: BASE.commissionMicros - first.commissionMicros,
    platformFeeMicros: BASE.platformFeeMicros - first.platformFeeMicros,
  };
  t.deepEqual(stillToTakeBack(BASE, after, share(33_333)), money(0, 0, 0), 'the same share again takes nothing');
  t.deepEqual(stillToTakeBack(BASE, after, share(20_000)), money(0, 0, 0), 'a smaller share takes nothing');
  const second = stillToTakeBack(BASE, after, share(66_667));
  // 66.667% of the base, rounded once: 6,660,033 micros of revenue, 2.00001 -> 2.00 and 0.200001 -> 0.20: the second
  // take is the difference to what the first took.
  t.deepEqual(second, money(6_660_033 - 3_329_967, 2_000_000 - 1_000_000, 200_000 - 100_000));
  const rest = {
    revenueMicros: after.revenueMicros - second.revenueMicros,
    commissionMicros: after.commissionMicros - second.commissionMicros,
    platformFeeMicros: after.platformFeeMicros - second.platformFeeMicros,
  };
  const whole = stillToTakeBack(BASE, rest, undefined);
  t.deepEqual(whole, rest, 'the whole refund takes exactly what stands');
  t.is(
    first.commissionMicros + second.commissionMicros + whole.commissionMicros,
    BASE.commissionMicros,
    'never more than the commission in total',
  );
  t.deepEqual(stillToTakeBack(BASE, money(0, 0, 0), undefined), money(0, 0, 0), 'nothing stands: nothing to take');
});

test('a refund reversal gives back what the refunds took; the take-back spreads over earns newest first', (t) => {
  t.deepEqual(toRestore(BASE, money(4_995_000, 1_500_000, 150_000)), money(4_995_000, 1_500_000, 150_000));
  t.deepEqual(toRestore(BASE, BASE), money(0, 0, 0));
  const earns = [
    { id: 'restored', live: money(4_995_000, 1_500_000, 150_000) },
    { id: 'rest', live: money(4_995_000, 1_500_000, 150_000) },
  ];
  t.deepEqual(standing(earns), BASE);
  const plan = planTakeBack(earns, money(7_000_000, 2_100_000, 210_000));
  t.deepEqual(
    plan.map((p) => [p.earn.id, p.part, p.whole]),
    [
      ['restored', money(4_995_000, 1_500_000, 150_000), true],
      ['rest', money(2_005_000, 600_000, 60_000), false],
    ],
  );
  t.deepEqual(planTakeBack(earns, money(0, 0, 0)), []);
});

test('an App Store partial refund is a REFUND of its share; its key is the transaction and the revocation date', (t) => {
  const tx = {
    transactionId: '40',
    originalTransactionId: '40',
    type: 'Consumable',
    environment: 'Production',
    purchaseDate: 1_700_000_000_000,
    price: 9990,
    currency: 'USD',
    revocationDate: 1_700_000_500_000,
  };
  const [, partial] = appleTransactionEvents(
    { ...tx, revocationType: 'REFUND_PRORATED', revocationPercentage: 50_000 },
    { appUserId: null, referralCode: null },
  );
  t.like(partial, { type: 'REFUND', transactionId: '40', eventTimestampMs: 1_700_000_500_000, refundShare: share(50_000) });
  const [, full] = appleTransactionEvents(
    { ...tx, revocationType: 'REFUND_FULL', revocationPercentage: 100_000 },
    { appUserId: null, referralCode: null },
  );
  t.is(full!.refundShare, undefined);
  const [, later] = appleTransactionEvents(
    { ...tx, revocationDate: 1_700_000_900_000, revocationPercentage: 75_000 },
    { appUserId: null, referralCode: null },
  );
  t.not(idempotencyKey('app', later!), idempotencyKey('app', partial!), 'a later refund of the same transaction is a new event');
});

test('cent shares add up to the commission exactly: thirds of the $10.00 of 25 % of $39.99 take 3.33, 3.34, 3.33', (t) => {
  const base = money(39_990_000, 10_000_000, 1_000_000);
  let live = base;
  const takes: CommissionMoney[] = [];
  for (const s of [share(33_333), share(66_667), undefined]) {
    const take = stillToTakeBack(base, live, s);
    takes.push(take);
    live = money(
      live.revenueMicros - take.revenueMicros,
      live.commissionMicros - take.commissionMicros,
      live.platformFeeMicros - take.platformFeeMicros,
    );
  }
  t.deepEqual(
    takes.map((x) => [x.commissionMicros, x.platformFeeMicros]),
    [
      [3_330_000, 330_000],
      [3_340_000, 340_000],
      [3_330_000, 330_000],
    ],
  );
  t.true(
    takes.every((x) => x.commissionMicros % 10_000 === 0 && x.platformFeeMicros % 10_000 === 0),
    'each take whole cents',
  );
  t.deepEqual(live, money(0, 0, 0), 'together exactly the base');
});
