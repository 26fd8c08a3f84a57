// Attribution by a creator's App Store offer code (issue 38, docs/purchase-pipeline.md "Creator offer codes")
// through the real pipeline: signed transactions with offerType 3 and the offer's reference name, reported by the
// app (/sdk/purchase) and notified by Apple (OFFER_REDEEMED, SUBSCRIBED, DID_RENEW, REFUND) from the test's Apple
// chain. Attributed with no click, no install and no code; a user already attributed keeps their creator; the report
// and the notification of one transaction count once; renewals and refunds follow the conversion; an offer redeemed
// on an organic subscription (also a lapsed one) attributes from that transaction on; retired codes attribute nothing.
import test from 'ava';
import { notificationPayload, signTransaction, transactionPayload, type TransactionFields } from '../helpers/apple-signing.js';
import { request } from '../helpers/http.js';
import { insertOfferCode, offerValue, retireOfferCode, secondCreator, seededMembership, type Membership } from '../helpers/offer-codes.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { notifyApple, reportPurchase, storeAccount, switchToStoreDirect, useStoreWorld } from '../helpers/store-direct.js';
import type { StoreAccount } from '../helpers/store-direct.js';

const clock = new RateLimitClock();
const { h } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' }, rateLimitClock: clock.now });
const world = useStoreWorld(test, h);
let a: StoreAccount;
let maya: Membership;
let other: Membership;
let mayaOffer: string;
let mayaOfferId: string;
const DAY = 86_400_000;

const sign = (payload: Record<string, unknown>) => signTransaction(world().chain, payload);
const tx = (fields: Omit<TransactionFields, 'bundleId'> = {}) => transactionPayload({ bundleId: a.bundleId, ...fields });
const notification = (type: string, transaction: Record<string, unknown>, subtype?: string) =>
  notificationPayload({
    notificationType: type,
    ...(subtype ? { subtype } : {}),
    bundleId: a.bundleId,
    appAppleId: 1234567890,
    signedTransactionInfo: sign(transaction),
  });

const notify = (payload: Record<string, unknown>) => notifyApple(h(), world(), a, payload);

const conversionOf = (key: unknown) => h().db('conversions').where({ app_id: a.app_id, conversion_key: key }).first();
const commissionsOf = (key: unknown) =>
  h()
    .db('commissions as c')
    .join('conversions as v', 'v.id', 'c.conversion_id')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where({ 'v.app_id': a.app_id, 'v.conversion_key': key })
    .orderBy('c.created_at')
    .select('c.kind', 'c.creator_id', 'p.transaction_id', 'c.commission_micros');

test.before(async () => {
  await world.ready();
  h().config.STORE_NOTIFICATION_BINDING_WAIT_MS = 1500;
  a = await storeAccount(h());
  await switchToStoreDirect(h(), world(), a, 'ios');
  maya = await seededMembership(h().db, a);
  other = await secondCreator(h().db, a);
  mayaOffer = offerValue('maya_offer');
  mayaOfferId = await insertOfferCode(h().db, a, maya, { platform: 'ios', value: mayaOffer, custom_code: 'MAYA30' });
});

test.serial('reported with an offer code: attributed with no click, install or code; renewal earns, refund reverses', async (t) => {
  const first = tx({ purchaseDate: Date.now() - 40 * DAY, offerIdentifier: mayaOffer });
  const reported = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(first), app_user_id: 'offer-user-1' });
  t.like(reported.body, { event_type: 'INITIAL_PURCHASE', duplicate: false, result: { processed: true } });
  t.like(await conversionOf(first.transactionId), {
    attributed: true,
    creator_id: maya.creator_id,
    referral_code: maya.creator_code,
    attribution_method: 'offer_code',
    offer_code_id: mayaOfferId,
  });
  t.like(await h().db('user_attributions').where({ app_id: a.app_id, app_user_id: 'offer-user-1' }).first(), {
    creator_id: maya.creator_id,
    method: 'offer_code',
    offer_code_id: mayaOfferId,
  });
  t.is((await h().db('clicks').where({ app_id: a.app_id })).length + (await h().db('installs').where({ app_id: a.app_id })).length, 0);
  // The renewal after the offer period carries no offer type: it follows the conversion.
  const renewal = tx({ originalTransactionId: first.transactionId as string, purchaseDate: Date.now() - 10 * DAY });
  const renewed = await notify(notification('DID_RENEW', renewal));
  t.like(renewed, { events: [{ type: 'RENEWAL', error: null, duplicate: false }] });
  const refunded = await notify(notification('REFUND', { ...renewal, revocationDate: Date.now() - 1000, revocationReason: 0 }));
  t.like(refunded.events.at(-1), { type: 'REFUND', error: null });
  const rows = await commissionsOf(first.transactionId);
  t.deepEqual(
    rows.map((r) => [r.kind, r.creator_id, r.transaction_id]),
    [
      ['earn', maya.creator_id, first.transactionId],
      ['earn', maya.creator_id, renewal.transactionId],
      [rows[2]!.kind, maya.creator_id, renewal.transactionId],
    ],
  );
  t.not(rows[2]!.kind, 'earn');
  t.is(Number(rows[2]!.commission_micros), -Number(rows[1]!.commission_micros));
  t.is((await conversionOf(first.transactionId)).status, 'refunded');
});

test.serial("OFFER_REDEEMED alone (no SDK): attributed after the wait; SUBSCRIBED and the app's report of it count once", async (t) => {
  const first = tx({ offerIdentifier: mayaOffer });
  const outcome = await notify(notification('OFFER_REDEEMED', first, 'INITIAL_BUY'));
  t.like(outcome, { kind: 'events', waited: 'timed_out', events: [{ type: 'INITIAL_PURCHASE', error: null, duplicate: false }] });
  t.like(await conversionOf(first.transactionId), { attributed: true, creator_id: maya.creator_id, attribution_method: 'offer_code' });
  const subscribed = await notify(notification('SUBSCRIBED', first, 'INITIAL_BUY'));
  t.like(subscribed, { events: [{ type: 'INITIAL_PURCHASE', duplicate: true }] });
  const report = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign({ ...first, signedDate: Date.now() }) });
  t.like(report.body, { duplicate: true, result: { processed: true } });
  t.is((await commissionsOf(first.transactionId)).length, 1, 'one earn, whichever arrived first');
  const events = await h().db('purchase_events').where({ app_id: a.app_id, transaction_id: first.transactionId });
  t.is(events.length, 1);
});

test.serial(
  'one-time purchases with an offer code are attributed, reported or notified; OFFER_REDEEMED DOWNGRADE is a product change',
  async (t) => {
    const once = tx({ type: 'Non-Consumable', productId: 'lifetime', offerIdentifier: mayaOffer });
    const reported = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(once), app_user_id: 'offer-user-3' });
    t.like(reported.body, { event_type: 'NON_RENEWING_PURCHASE', result: { processed: true } });
    t.like(await conversionOf(once.transactionId), {
      kind: 'one_time',
      attributed: true,
      creator_id: maya.creator_id,
      attribution_method: 'offer_code',
    });
    t.is((await commissionsOf(once.transactionId)).length, 1);
    // Notified only (no app): ONE_TIME_CHARGE of a consumable redeemed with the offer.
    const notified = tx({ type: 'Consumable', productId: 'coins', offerIdentifier: mayaOffer });
    t.like(await notify(notification('ONE_TIME_CHARGE', notified)), { events: [{ type: 'NON_RENEWING_PURCHASE', error: null }] });
    t.like(await conversionOf(notified.transactionId), { kind: 'one_time', creator_id: maya.creator_id, attribution_method: 'offer_code' });

    const sub = tx({ offerIdentifier: mayaOffer });
    await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(sub), app_user_id: 'offer-user-4' });
    const downgrade = await notify(notification('OFFER_REDEEMED', sub, 'DOWNGRADE'));
    t.like(downgrade, { events: [{ type: 'PRODUCT_CHANGE', error: null }] });
  },
);

test.serial('a user already attributed to another creator keeps them; the event says "offer code of another creator"', async (t) => {
  const code = await request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
    token: a.sdk_key,
    body: { code: other.creator_code, app_user_id: 'taken-user' },
    headers: { 'x-forwarded-for': '203.0.113.77' },
  });
  t.like(code.body, { success: true });
  const first = tx({ offerIdentifier: mayaOffer });
  const reported = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(first), app_user_id: 'taken-user' });
  t.like(reported.body, { result: { processed: true } });
  t.like(await conversionOf(first.transactionId), { attributed: true, creator_id: other.creator_id, attribution_method: 'manual_code' });
  const event = await h().db('purchase_events').where({ app_id: a.app_id, transaction_id: first.transactionId }).first();
  t.like(event, { processing_status: 'processed', attributed: true, referral_code: other.creator_code });
  t.regex(event.error, /^offer code of another creator/);
  const rows = await commissionsOf(first.transactionId);
  t.deepEqual(
    rows.map((r) => r.creator_id),
    [other.creator_id],
  );
});

test.serial('an offer redeemed on an organic subscription attributes from that renewal on; a lapsed one comes back active', async (t) => {
  const first = tx({ purchaseDate: Date.now() - 70 * DAY });
  const organic = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(first), app_user_id: 'organic-user' });
  t.like(organic.body, { result: { processed: true } });
  t.like(await conversionOf(first.transactionId), { attributed: false });
  const plain = tx({ originalTransactionId: first.transactionId as string, purchaseDate: Date.now() - 40 * DAY });
  await notify(notification('DID_RENEW', plain));
  const redeemed = tx({
    originalTransactionId: first.transactionId as string,
    purchaseDate: Date.now() - 10 * DAY,
    offerIdentifier: mayaOffer,
  });
  t.like(await notify(notification('DID_RENEW', redeemed)), { events: [{ type: 'RENEWAL', error: null }] });
  t.like(await conversionOf(first.transactionId), { attributed: true, creator_id: maya.creator_id, attribution_method: 'offer_code' });
  t.deepEqual(
    (await commissionsOf(first.transactionId)).map((r) => [r.kind, r.transaction_id]),
    [['earn', redeemed.transactionId]],
    'the earlier periods stay organic',
  );

  // Lapsed: an organic subscription expired, then its subscriber resubscribes with the creator's offer.
  const lapsed = tx({ purchaseDate: Date.now() - 100 * DAY });
  await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(lapsed) });
  await notify(notification('EXPIRED', lapsed, 'VOLUNTARY'));
  t.is((await conversionOf(lapsed.transactionId)).status, 'churned');
  const back = tx({ originalTransactionId: lapsed.transactionId as string, offerIdentifier: mayaOffer });
  t.like(await notify(notification('OFFER_REDEEMED', back, 'RESUBSCRIBE')), { events: [{ type: 'RENEWAL', error: null }] });
  t.like(await conversionOf(lapsed.transactionId), { attributed: true, status: 'active', creator_id: maya.creator_id });
  t.deepEqual(
    (await commissionsOf(lapsed.transactionId)).map((r) => [r.kind, r.transaction_id]),
    [['earn', back.transactionId]],
  );
});

test.serial('a retired offer code attributes no new purchase and keeps its past attributions', async (t) => {
  const retiredValue = offerValue('retired');
  const id = await insertOfferCode(h().db, a, maya, { platform: 'ios', value: retiredValue });
  const before = tx({ offerIdentifier: retiredValue });
  await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(before) });
  await retireOfferCode(h().db, id);
  const after = tx({ offerIdentifier: retiredValue });
  const reported = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: sign(after) });
  t.like(reported.body, { result: { processed: true } });
  t.like(await conversionOf(after.transactionId), { attributed: false });
  t.like(await conversionOf(before.transactionId), { attributed: true, offer_code_id: id });
});
