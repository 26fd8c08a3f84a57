// Partial App Store refunds (docs/store-direct.md "Server notifications", docs/purchase-pipeline.md "Refunds"):
// a REFUND notification whose transaction carries revocationType REFUND_PRORATED and revocationPercentage (milliunits)
// takes back exactly that cumulative share of that transaction's commission, rounded once in micros. Inside the
// holding period the earn is replaced by its remainder (same release date) and the share's reservation is released;
// after the release the share is clawed back. A redelivery takes nothing, a later larger share its difference, a
// full refund exactly the rest, and REFUND_REVERSED gives back everything taken. Signed V2 notifications with a
// throw-away chain, the real worker, the books checked after each test (test/helpers/harness.ts, conversions.ts).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { listCreatorCommissions } from '../../db/creator-portal.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { storeNotificationWorkflowId, type StoreNotificationOutcome } from '../../workflows/store-notification-messages.js';
import { decideReview } from '../../actions/commission-reviews.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { assertLedgerIdentity } from '../helpers/books.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { notificationPayload, signTransaction, transactionPayload, type TransactionFields } from '../helpers/apple-signing.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { reportPurchase, storeAccount, switchToStoreDirect, useStoreWorld, type StoreAccount } from '../helpers/store-direct.js';
import { waitFor } from '../helpers/svc-processes.js';

// One holding-period day is 6 s here: a campaign held one day releases its earns while the test waits.
const { h } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '6000' } });
const world = useStoreWorld(test, h);
let a: StoreAccount;
const APPLE_ID = 1234567890;

// A $9.99 purchase at the seeded 30% commission and the 10% platform fee.
const BASE = { revenue: 9_990_000, commission: 3_000_000, fee: 300_000 };

const sign = (payload: Record<string, unknown>) => signTransaction(world().chain, payload);
const tx = (fields: Omit<TransactionFields, 'bundleId'> = {}) =>
  transactionPayload({ bundleId: a.bundleId, price: 9990, currency: 'USD', ...fields });
const notification = (type: string, transaction: Record<string, unknown>) =>
  notificationPayload({ notificationType: type, bundleId: a.bundleId, appAppleId: APPLE_ID, signedTransactionInfo: sign(transaction) });
const post = (signedPayload: string) => request(h().baseUrl, 'POST', `/api/webhooks/apple/${a.app_id}`, { body: { signedPayload } });

async function notify(payload: Record<string, unknown>): Promise<StoreNotificationOutcome> {
  const res = await post(sign(payload));
  if (res.status !== 200) throw new Error(`notification answered ${res.status} ${res.text}`);
  return h()
    .temporal.workflow.getHandle(
      storeNotificationWorkflowId({ appId: a.app_id, source: 'app_store_notification', externalId: payload.notificationUUID as string }),
    )
    .result();
}

/** The transaction refunded (prorated to `milli` of 100,000, or in full) at `atMs`. */
const refunded = (purchase: Record<string, unknown>, atMs: number, milli?: number) => ({
  ...purchase,
  revocationDate: atMs,
  revocationReason: 0,
  ...(milli === undefined
    ? { revocationType: 'REFUND_FULL', revocationPercentage: 100_000 }
    : { revocationType: 'REFUND_PRORATED', revocationPercentage: milli }),
});

interface Row {
  id: string;
  kind: string;
  status: string;
  revenue: number;
  commission: number;
  fee: number;
  reverses: string | null;
  payable_at: Date | null;
  reversed_at: Date | null;
  created_at: Date;
}
async function rowsOf(conversionKey: string): Promise<Row[]> {
  const rows = await h()
    .db('commissions as c')
    .join('conversions as v', 'v.id', 'c.conversion_id')
    .where({ 'v.app_id': a.app_id, 'v.conversion_key': conversionKey })
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }])
    .select(
      'c.id',
      'c.kind',
      'c.status',
      'c.revenue_usd_micros',
      'c.commission_micros',
      'c.platform_fee_micros',
      'c.reverses_commission_id',
      'c.payable_at',
      'c.reversed_at',
      'c.created_at',
    );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    revenue: Number(r.revenue_usd_micros),
    commission: Number(r.commission_micros),
    fee: Number(r.platform_fee_micros),
    reverses: r.reverses_commission_id,
    payable_at: r.payable_at,
    reversed_at: r.reversed_at,
    created_at: r.created_at,
  }));
}
const sum = (rows: Row[], k: 'revenue' | 'commission' | 'fee') => rows.reduce((s, r) => s + r[k], 0);
const live = (rows: Row[]) => rows.filter((r) => r.kind === 'earn' && r.reversed_at === null);
const conversionOf = (key: string) => h().db('conversions').where({ app_id: a.app_id, conversion_key: key }).first();
const clawbacksOf = async (commissionId: string) =>
  (await h().db('clawbacks').where('commission_id', commissionId).orderBy('created_at')).map((c) => Number(c.amount_micros));
const reserved = async () => (await getWalletTotals(h().db, a.org_id)).reservedMicros;

/** A $9.99 purchase the app reports with the creator's code, on a campaign holding `holdingDays` days. */
async function purchase(
  holdingDays: number,
  fields: Omit<TransactionFields, 'bundleId'> = {},
  extra: Record<string, unknown> = {},
): Promise<{ payload: Record<string, unknown>; key: string; earn: Row }> {
  await h().db('campaigns').where('id', a.campaign_id).update({ holding_period_days: holdingDays });
  const payload = { ...tx(fields), ...extra };
  const res = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(payload),
    referral_code: a.creator_code,
    app_user_id: `user-${randomUUID()}`,
  });
  if (!res.body?.result?.processed) throw new Error(`report not processed: ${res.text}`);
  const key = payload.transactionId as string;
  const [earn] = await rowsOf(key);
  return { payload, key, earn: earn! };
}

test.before(async () => {
  await world.ready();
  a = await storeAccount(h());
  world().apple.onTestNotification = async () => {
    await post(sign(notificationPayload({ notificationType: 'TEST', bundleId: a.bundleId, appAppleId: APPLE_ID })));
  };
  await switchToStoreDirect(h(), world(), a, 'ios');
  world().apple.onTestNotification = null;
});

test.afterEach.always('the books of the organization are exact', async (t) => {
  if (a) await assertExactBooks(t, h().db, a.org_id);
});

test.serial('whole cents: a third of a paid $39.99 purchase at 25 % refunded is $3.33 clawed back, netted by the next run', async (t) => {
  const { db } = h();
  // A ready payout account: every payout run holds over a creator without one.
  if (!(await db('payout_accounts').where('creator_id', a.creator_id).first())) await connectTestAccount(db, a.creator_id);
  await db('campaigns').where('id', a.campaign_id).update({ commission_percentage: 25 });
  t.teardown(() => db('campaigns').where('id', a.campaign_id).update({ commission_percentage: 30 }));
  const first = await purchase(0, { price: 39990 });
  t.like(first.earn, { revenue: 39_990_000, commission: 10_000_000, fee: 1_000_000 }, '$10.00 and $1.00, not $9.9975 and $0.99975');
  await waitFor(async () => (await rowsOf(first.key))[0]!.status === 'payable', 'the earn to be released', 30_000);
  const run1 = await runPayoutRun({ db }, { orgId: a.org_id, runId: `cents-1-${a.org_id}` });
  t.is(run1.payouts.length, 1);
  t.like(await db('payouts').where('run_id', `cents-1-${a.org_id}`).first(), {
    gross_micros: 10_000_000,
    fees_micros: 1_000_000,
    net_micros: 10_000_000,
  });
  await assertLedgerIdentity(t, db);

  await notify(notification('REFUND', refunded(first.payload, Date.now() - 1000, 33_333)));
  const rows = await rowsOf(first.key);
  t.like(rows[1], { kind: 'reversal', commission: -3_330_000, fee: -330_000 }, '33.333 % of $10.00 is $3.33, of $1.00 is $0.33');
  t.deepEqual(await clawbacksOf(first.earn.id), [3_330_000]);
  await assertLedgerIdentity(t, db);

  const second = await purchase(0, { price: 39990 });
  await waitFor(async () => (await rowsOf(second.key))[0]!.status === 'payable', 'the second earn to be released', 30_000);
  await runPayoutRun({ db }, { orgId: a.org_id, runId: `cents-2-${a.org_id}` });
  t.like(await db('payouts').where('run_id', `cents-2-${a.org_id}`).first(), {
    gross_micros: 10_000_000,
    fees_micros: 1_000_000,
    clawbacks_netted_micros: 3_330_000,
    net_micros: 6_670_000,
  });
  t.like(await db('clawbacks').where('commission_id', first.earn.id).first(), { amount_micros: 3_330_000, recovered_micros: 3_330_000 });
  await assertLedgerIdentity(t, db);
});

test.serial(
  'a 50% prorated refund inside the holding period releases half the reservation; the other half is released as payable later',
  async (t) => {
    const { payload, key, earn } = await purchase(1);
    t.like(earn, { kind: 'earn', status: 'reserved', ...BASE });
    const before = await reserved();
    const note = notification('REFUND', refunded(payload, Date.now() - 1000, 50_000));
    const outcome = await notify(note);
    t.like(outcome, { kind: 'events', events: [{ type: 'INITIAL_PURCHASE' }, { type: 'REFUND', error: null, duplicate: false }] });
    const rows = await rowsOf(key);
    const original = rows.find((r) => r.id === earn.id);
    const reversal = rows.find((r) => r.kind === 'reversal');
    const remainder = rows.find((r) => r.kind === 'earn' && r.id !== earn.id);
    t.is(rows.length, 3);
    t.like(original, { id: earn.id, status: 'reversed' });
    t.like(reversal, { kind: 'reversal', reverses: earn.id, revenue: -BASE.revenue, commission: -BASE.commission, fee: -BASE.fee });
    t.like(remainder, { kind: 'earn', status: 'reserved', revenue: 4_995_000, commission: 1_500_000, fee: 150_000 });
    t.is(remainder!.payable_at!.getTime(), earn.payable_at!.getTime(), 'the remainder keeps the release date');
    t.is(remainder!.created_at.getTime(), earn.created_at.getTime(), 'and the date it was earned');
    t.is(before - (await reserved()), 1_500_000 + 150_000, 'half the reservation released, exactly');
    t.like(await conversionOf(key), { status: 'active', refunded_at: null }, 'a partial refund does not mark the purchase refunded');

    // Redelivered (Apple retries; the history lists it again; the app reports the refunded transaction): nothing moves.
    await notify({ ...note, notificationUUID: randomUUID() });
    const report = await reportPurchase(h(), a, {
      platform: 'ios',
      signed_transaction: sign(refunded(payload, note.signedDate as number, 50_000)),
    });
    t.is(report.status, 200, report.text);
    t.deepEqual(await rowsOf(key), rows);

    const remainderNow = async () => (await rowsOf(key)).find((r) => r.id === remainder!.id)!;
    await waitFor(async () => (await remainderNow()).status === 'payable', 'the remainder to be released', 30_000);
    t.like(await remainderNow(), { status: 'payable', commission: 1_500_000, fee: 150_000 });
    t.like(
      (await rowsOf(key)).find((r) => r.id === earn.id),
      { status: 'reversed' },
      'the replaced earn is never released',
    );
    t.is(
      before - (await reserved()),
      0 + 1_500_000 + 150_000,
      'a payable earn keeps its reservation until paid; the refunded half stays released',
    );
  },
);

test.serial(
  'after release, shares of a 1-of-3 consumable are clawed back: 33.333%, ' +
    'then 66.667% (the difference), then the rest exactly; REFUND_REVERSED restores',
  async (t) => {
    const { payload, key, earn } = await purchase(0, { type: 'Consumable' }, { quantity: 3 });
    t.like(earn, BASE);
    await waitFor(async () => (await rowsOf(key))[0]!.status === 'payable', 'the earn to be released', 30_000);
    const reservedBefore = await reserved();
    const start = Date.now() - 60_000;

    await notify(notification('REFUND', refunded(payload, start, 33_333)));
    let rows = await rowsOf(key);
    t.like(rows[0], { status: 'payable', reversed_at: null }, 'released: it keeps its state, a share clawed back');
    t.like(rows[1], { kind: 'reversal', reverses: earn.id, revenue: -3_329_967, commission: -1_000_000, fee: -100_000 });
    // Whole cents: 33.333% of $3.00 is 0.99999, $1.00; of its $0.30 fee, $0.10.
    t.deepEqual(await clawbacksOf(earn.id), [1_000_000]);

    const second = notification('REFUND', refunded(payload, start + 1000, 66_667));
    await notify(second);
    await notify({ ...second, notificationUUID: randomUUID() });
    rows = await rowsOf(key);
    t.is(rows.length, 3, 'the second share once, redelivered or not');
    t.like(rows[2], {
      kind: 'reversal',
      reverses: earn.id,
      revenue: -(6_660_033 - 3_329_967),
      commission: -(2_000_000 - 1_000_000),
      fee: -(200_000 - 100_000),
    });
    t.deepEqual(await clawbacksOf(earn.id), [1_000_000, 1_000_000]);
    t.like(await conversionOf(key), { status: 'active' });
    // What the creator's portal reads of it: still payable, with the share taken back named.
    const owner = await h().db('commissions').where('id', earn.id).first('creator_id', 'campaign_id');
    const line = (await listCreatorCommissions(h().db, owner.creator_id, owner.campaign_id)).find((l) => l.id === earn.id)!;
    t.like(line, { status: 'payable', reversed_at: null, clawed_back_micros: 1_000_000 + 1_000_000 });

    await notify(notification('REFUND', refunded(payload, start + 2000)));
    rows = await rowsOf(key);
    const reversals = rows.filter((r) => r.kind === 'reversal');
    t.is(reversals.length, 3);
    t.deepEqual(
      [sum(reversals, 'revenue'), sum(reversals, 'commission'), sum(reversals, 'fee')],
      [-BASE.revenue, -BASE.commission, -BASE.fee],
      'exactly the whole, never more',
    );
    t.truthy(rows[0]!.reversed_at);
    t.is(
      (await clawbacksOf(earn.id)).reduce((s, c) => s + c, 0),
      BASE.commission,
    );
    t.like(await conversionOf(key), { status: 'refunded' });
    await notify(notification('REFUND', refunded(payload, start + 3000)));
    t.is((await rowsOf(key)).length, rows.length, 'a refund of what is all taken back takes nothing');
    t.is(await reserved(), reservedBefore, 'a clawback releases no reservation: the payable earn is still paid, the clawback netted');

    await notify(notification('REFUND_REVERSED', payload));
    rows = await rowsOf(key);
    t.like(rows.at(-1), { kind: 'earn', reversed_at: null, ...BASE }, 'the whole commission earned again');
    t.like(await conversionOf(key), { status: 'active' });
  },
);

test.serial(
  'inside the holding period: 50%, then 75% takes the difference, REFUND_REVERSED gives back 75%, a full refund takes exactly the whole',
  async (t) => {
    const { payload, key, earn } = await purchase(30);
    const before = await reserved();
    const start = Date.now() - 60_000;
    await notify(notification('REFUND', refunded(payload, start, 50_000)));
    await notify(notification('REFUND', refunded(payload, start + 1000, 75_000)));
    let rows = await rowsOf(key);
    t.deepEqual(
      live(rows).map((r) => [r.revenue, r.commission, r.fee, r.status]),
      [[2_497_500, 750_000, 70_000, 'reserved']], // 75% of the $0.30 fee is 0.225, $0.23 taken: $0.07 stands
    );
    t.is(before - (await reserved()), BASE.commission + BASE.fee - 750_000 - 70_000);
    t.is(live(rows)[0]!.payable_at!.getTime(), earn.payable_at!.getTime());

    await notify(notification('REFUND_REVERSED', payload));
    rows = await rowsOf(key);
    t.deepEqual(
      live(rows)
        .map((r) => r.commission)
        .sort(),
      [2_250_000, 750_000].sort(),
      'the taken 75% earned again beside the remainder',
    );
    t.is(await reserved(), before, 'all of it reserved again');
    await notify(notification('REFUND_REVERSED', { ...payload, signedDate: Date.now() + 5 }));
    t.is((await rowsOf(key)).length, rows.length, 'a second reversal gives back nothing');

    await notify(notification('REFUND', refunded(payload, start + 2000)));
    rows = await rowsOf(key);
    t.deepEqual(live(rows), [], 'both standing earns reversed by the one refund');
    t.deepEqual(
      [sum(rows, 'revenue'), sum(rows, 'commission'), sum(rows, 'fee')],
      [0, 0, 0],
      'earned and reversed add up to nothing, exactly',
    );
    t.is(before - (await reserved()), BASE.commission + BASE.fee);
    t.like(await conversionOf(key), { status: 'refunded' });
  },
);

test.serial(
  'held for review: the remainder of a partial refund stays held with the review; a refund reversal’s share is held and reviewed too',
  async (t) => {
    const { db } = h();
    // The purchaser the app identified with the creator's own email: self-referral holds the commission.
    const user = `self-${randomUUID()}`;
    const creatorEmail = (await db('creators').where('id', a.creator_id).first()).email as string;
    const identified = await request(h().baseUrl, 'POST', '/api/sdk/identify', {
      token: a.sdk_key,
      body: { app_user_id: user, properties: { email: creatorEmail.toUpperCase() } },
    });
    t.is(identified.status, 200, identified.text);
    await db('campaigns').where('id', a.campaign_id).update({ holding_period_days: 1 });
    const payload = tx();
    const res = await reportPurchase(h(), a, {
      platform: 'ios',
      signed_transaction: sign(payload),
      referral_code: a.creator_code,
      app_user_id: user,
    });
    t.true(res.body?.result?.processed, res.text);
    const key = payload.transactionId as string;
    const [earn] = await rowsOf(key);
    const { conversion_id: conversionId } = await db('commissions').where('id', earn!.id).first();
    const reviewsOf = () =>
      db('commission_reviews as r')
        .join('commissions as c', 'c.id', 'r.commission_id')
        .where('c.conversion_id', conversionId)
        .orderBy('r.created_at')
        .select('r.*', 'c.review_state');
    t.like(await db('commissions').where('id', earn!.id).first(), { review_state: 'held' });

    await notify(notification('REFUND', refunded(payload, Date.now(), 50_000)));
    const remainder = live(await rowsOf(key))[0]!;
    t.not(remainder.id, earn!.id, 'the earn is replaced by its remainder');
    let reviews = await reviewsOf();
    t.is(reviews.length, 1, 'the review moved with the money: no second one');
    t.like(reviews[0], { commission_id: remainder.id, status: 'open', review_state: 'held' });

    await new Promise((r) => setTimeout(r, 7000));
    t.like(
      await db('commissions').where('id', remainder.id).first(),
      { status: 'reserved', review_state: 'held' },
      'past its date, still held',
    );

    await notify(notification('REFUND_REVERSED', payload));
    const restored = live(await rowsOf(key)).find((r) => r.id !== remainder.id)!;
    reviews = await reviewsOf();
    t.is(reviews.length, 2, 'the restored share is reviewed on its own');
    t.like(
      reviews.find((r) => r.commission_id === restored.id),
      { status: 'open', action: 'hold', review_state: 'held' },
    );

    const actor = { actorType: 'user' as const, actorId: 'usr_reviewer', requestId: null, ip: null };
    for (const r of reviews) await decideReview(db, { orgId: a.org_id, reviewId: r.id, decision: 'void', actor });
    t.deepEqual(live(await rowsOf(key)), [], 'both voided: nothing of the purchase stands');
    await notify(notification('REFUND_REVERSED', payload));
    t.deepEqual(live(await rowsOf(key)), [], 'undoing a refund does not earn a voided commission again');
  },
);
