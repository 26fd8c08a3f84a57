// The app's report attributes a conversion a store notification already applied as organic (docs/store-direct.md
// "Attribution survives the race"): an App Store INITIAL_BUY bound to no user waits, is applied as organic, a renewal
// notified meanwhile is organic too; the app's report of the initial purchase with a creator's code then attributes
// the conversion and earns every paid, not refunded period once (reserved from the wallet, held); a repeated report
// or update earns nothing more; a report past the app's attribution window leaves it organic with the reason; an
// empty wallet earns unfunded, as any earn does.
import test from 'ava';
import { appleTransactionEvents } from '../../lib/store-purchase.js';
import { attributeLateUpdate, conversionWorkflowId } from '../../workflows/conversion-messages.js';
import { idempotencyKey } from '../../lib/purchase-event.js';
import { notificationPayload, signTransaction, transactionPayload, type TransactionFields } from '../helpers/apple-signing.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  notifyApple,
  reportPurchase,
  storeAccount,
  switchToStoreDirect,
  useStoreWorld,
  type StoreAccount,
} from '../helpers/store-direct.js';

const { h } = useSeededHarness(test);
const world = useStoreWorld(test, h);
let a: StoreAccount;
const APPLE_ID = 1234567890;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ORGANIC = 'no referral code (organic purchase)';
// $9.99 at the seeded campaign's 30 % and the default 10 % platform fee.
const COMMISSION = 3_000_000;
const FEE = 300_000;

const sign = (payload: Record<string, unknown>) => signTransaction(world().chain, payload);
const tx = (fields: Omit<TransactionFields, 'bundleId'> = {}) => transactionPayload({ bundleId: a.bundleId, ...fields });
const notification = (type: string, transaction: Record<string, unknown>, extra: { subtype?: string } = {}) =>
  notificationPayload({
    notificationType: type,
    bundleId: a.bundleId,
    appAppleId: APPLE_ID,
    signedTransactionInfo: sign(transaction),
    ...extra,
  });

const notify = (payload: Record<string, unknown>) => notifyApple(h(), world(), a, payload);

const conversionOf = (key: string) => h().db('conversions').where({ app_id: a.app_id, conversion_key: key }).first();
const commissionsOf = (key: string) =>
  h()
    .db('commissions as c')
    .join('conversions as v', 'v.id', 'c.conversion_id')
    .where({ 'v.app_id': a.app_id, 'v.conversion_key': key })
    .orderBy('c.created_at')
    .select('c.*');
const ledgerCount = async () =>
  Number((await h().db('wallet_ledger').where('org_id', a.org_id).count<{ count: string }[]>('* as count'))[0]!.count);
const eventOf = (transactionId: string, type: string) =>
  h().db('purchase_events').where({ app_id: a.app_id, transaction_id: transactionId, event_type: type }).first();

/** A store-direct iOS app of its own organization (the one the tests use from then on). */
async function iosApp(opts: { walletUsd?: number } = {}): Promise<void> {
  a = await storeAccount(h(), opts);
  world().apple.onTestNotification = async () => {
    const test = notificationPayload({ notificationType: 'TEST', bundleId: a.bundleId, appAppleId: APPLE_ID });
    await request(h().baseUrl, 'POST', `/api/webhooks/apple/${a.app_id}`, { body: { signedPayload: sign(test) } });
  };
  await switchToStoreDirect(h(), world(), a, 'ios');
  world().apple.onTestNotification = null;
}

test.before(async () => {
  await world.ready();
  h().config.STORE_NOTIFICATION_BINDING_WAIT_MS = 2000;
  await iosApp();
});

test.serial("the app's report with a code attributes an organic conversion: every paid, not refunded period earns once", async (t) => {
  const user = 'late-reporter';
  const first = tx({ purchaseDate: Date.now() - 3 * HOUR });
  const key = first.transactionId as string;
  const initial = await notify(notification('SUBSCRIBED', first, { subtype: 'INITIAL_BUY' }));
  t.like(initial, { waited: 'timed_out', events: [{ type: 'INITIAL_PURCHASE', error: ORGANIC }] });
  const renewal = tx({ originalTransactionId: key, purchaseDate: Date.now() - 2 * HOUR });
  t.like(await notify(notification('DID_RENEW', renewal)), { events: [{ type: 'RENEWAL', error: ORGANIC }] });
  const shared = tx({ originalTransactionId: key, purchaseDate: Date.now() - 90 * 60_000, inAppOwnershipType: 'FAMILY_SHARED' });
  await notify(notification('DID_RENEW', shared));
  const refunded = tx({ originalTransactionId: key, purchaseDate: Date.now() - HOUR });
  await notify(notification('DID_RENEW', refunded));
  const refund = await notify(notification('REFUND', { ...refunded, revocationDate: Date.now() - 1000, revocationReason: 0 }));
  t.like(refund.events.at(-1), { type: 'REFUND', error: null });
  t.like(await conversionOf(key), { attributed: false, app_user_id: null });
  const ledgerBefore = await ledgerCount();

  const report = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(first),
    referral_code: a.creator_code,
    app_user_id: user,
  });
  t.is(report.status, 200, report.text);
  t.like(report.body, {
    event_type: 'INITIAL_PURCHASE',
    duplicate: true,
    recorded: true,
    result: { processed: true, event_id: initial.events[0]!.eventId },
  });
  const conversion = await conversionOf(key);
  t.like(conversion, {
    attributed: true,
    referral_code: a.creator_code,
    creator_id: a.creator_id,
    campaign_id: a.campaign_id,
    app_user_id: user,
    attribution_method: 'purchase_code',
  });

  const earned = await commissionsOf(key);
  const paidEvents = [(await eventOf(key, 'INITIAL_PURCHASE')).id, (await eventOf(renewal.transactionId as string, 'RENEWAL')).id];
  t.deepEqual(
    earned.map((c) => c.purchase_event_id),
    paidEvents,
    'the initial purchase and the renewal; neither the family-shared nor the refunded renewal earns',
  );
  for (const c of earned) {
    t.like(c, { kind: 'earn', environment: 'PRODUCTION', status: 'reserved', creator_id: a.creator_id });
    t.is(Number(c.commission_micros), COMMISSION);
    t.is(Number(c.platform_fee_micros), FEE);
    const heldFor = c.payable_at.getTime() - c.created_at.getTime();
    t.true(Math.abs(heldFor - 30 * DAY) < 60_000, `held 30 days from the attribution (${heldFor} ms)`);
  }
  const reserves = await h()
    .db('wallet_ledger')
    .whereIn(
      'commission_id',
      earned.map((c) => c.id),
    )
    .select('entry_type', 'reserved_delta_micros');
  t.deepEqual(
    reserves.map((r) => [r.entry_type, Number(r.reserved_delta_micros)]),
    [
      ['reserve', COMMISSION + FEE],
      ['reserve', COMMISSION + FEE],
    ],
  );
  t.is(await ledgerCount(), ledgerBefore + 2);
  t.like(await eventOf(key, 'INITIAL_PURCHASE'), {
    attributed: true,
    organic: false,
    referral_code: a.creator_code,
    error: null,
    app_user_id: user,
  });
  t.like(await eventOf(renewal.transactionId as string, 'RENEWAL'), { attributed: true, referral_code: a.creator_code, error: null });
  const attribution = await request(h().baseUrl, 'GET', `/api/sdk/attribution?app_user_id=${user}`, { token: a.sdk_key });
  t.like(attribution.body, { attributed: true, referral_code: a.creator_code });

  // The same report again, and the update again under another id (a worker killed after its commit retrying it):
  // nothing more is earned.
  const again = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign({ ...first, signedDate: Date.now() }),
    referral_code: a.creator_code,
    app_user_id: user,
  });
  t.like(again.body, { duplicate: true, result: { processed: true, event_id: initial.events[0]!.eventId } });
  const [event] = appleTransactionEvents(first, { appUserId: user, referralCode: a.creator_code });
  const repeat = await h()
    .temporal.workflow.getHandle(conversionWorkflowId(a.app_id, key))
    .executeUpdate(attributeLateUpdate, {
      args: [{ appId: a.app_id, conversionKey: key, idempotencyKey: idempotencyKey(a.app_id, event!), event: event! }],
      updateId: 'a-retry',
    });
  t.like(repeat, { outcome: 'already_attributed', earned: 0, referralCode: a.creator_code });
  t.is((await commissionsOf(key)).length, 2);
  t.is(await ledgerCount(), ledgerBefore + 2);

  // A renewal notified after the attribution earns as usual.
  const next = tx({ originalTransactionId: key, purchaseDate: Date.now() - 60_000 });
  t.like(await notify(notification('DID_RENEW', next)), { events: [{ type: 'RENEWAL', error: null }] });
  t.is((await commissionsOf(key)).length, 3);
});

test.serial('a report past the attribution window leaves the conversion organic, with the reason on the event', async (t) => {
  const first = tx({ purchaseDate: Date.now() - 80 * HOUR });
  const key = first.transactionId as string;
  t.like(await notify(notification('SUBSCRIBED', first, { subtype: 'INITIAL_BUY' })), {
    waited: 'timed_out',
    events: [{ error: ORGANIC }],
  });
  const ledgerBefore = await ledgerCount();
  const report = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(first),
    referral_code: a.creator_code,
    app_user_id: 'too-late',
  });
  t.like(report.body, { duplicate: true, result: { processed: true } });
  t.like(await conversionOf(key), { attributed: false, referral_code: null });
  t.deepEqual(await commissionsOf(key), []);
  t.is(await ledgerCount(), ledgerBefore);
  const event = await eventOf(key, 'INITIAL_PURCHASE');
  t.like(event, { attributed: false, organic: true, processing_status: 'processed' });
  t.regex(event.error, /^reported 80 h after the purchase, past the app's attribution window of 72 h: the conversion stays organic$/);
});

test.serial('an empty wallet: the late attribution earns unfunded, the event and the answer say so', async (t) => {
  await iosApp({ walletUsd: 0 });
  const first = tx({ purchaseDate: Date.now() - HOUR });
  const key = first.transactionId as string;
  await notify(notification('SUBSCRIBED', first, { subtype: 'INITIAL_BUY' }));
  const report = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(first),
    referral_code: a.creator_code,
    app_user_id: 'short-of-funds',
  });
  t.like(report.body, { duplicate: true, result: { processed: false } });
  t.like(await conversionOf(key), { attributed: true, referral_code: a.creator_code });
  const [earned, ...more] = await commissionsOf(key);
  t.like(earned, { kind: 'earn', status: 'unfunded' });
  t.is(Number(earned.commission_micros), COMMISSION);
  t.deepEqual(more, []);
  t.is(await ledgerCount(), 0, 'nothing reserved from an empty wallet');
  t.like(await eventOf(key, 'INITIAL_PURCHASE'), { attributed: true, processing_status: 'error', error: 'insufficient wallet balance' });
});
