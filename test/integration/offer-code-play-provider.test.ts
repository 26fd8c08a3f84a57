// Attribution by a creator's offer code on Google Play and through the subscription provider (issue 38,
// docs/purchase-pipeline.md "Creator offer codes"), through the real pipeline: subscriptionsv2 answers of the Google
// stub with offers on more than one line item (every line item is read), a Play real-time notification with no app
// report, a line item whose tags belong to two creators (attributed to none, shown as a conflict), and provider
// webhook bodies whose `offer_code` is matched against the values of the event's store.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { playNotificationWorkflowId, type PlayNotificationOutcome } from '../../workflows/store-notification-messages.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { insertOfferCode, offerValue, secondCreator, seededMembership, type Membership } from '../helpers/offer-codes.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  newOrderId,
  reportPurchase,
  setPlaySubscription,
  storeAccount,
  switchToStoreDirect,
  useStoreWorld,
} from '../helpers/store-direct.js';
import type { StoreAccount } from '../helpers/store-direct.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { startOidcStub, type OidcStub } from '../stubs/google-oidc.js';

const PUSH_ACCOUNT = 'rtdn-push@proj.iam.gserviceaccount.com';
const clock = new RateLimitClock();
const { h, seed } = useSeededHarness(test, { rateLimitClock: clock.now });
const world = useStoreWorld(test, h);
let oidc: OidcStub;
let play: StoreAccount;
let maya: Membership;
let other: Membership;
const mayaOfferId = offerValue('maya-offer');
const mayaTag = offerValue('maya-tag');
const otherTag = offerValue('other-tag');

test.before(async () => {
  await world.ready();
  oidc = await startOidcStub();
  Object.assign(h().config, { GOOGLE_OIDC_CERTS_URL: oidc.certsUrl, PLAY_RTDN_REPORT_WAIT_MS: 1500 });
  play = await storeAccount(h());
  await switchToStoreDirect(h(), world(), play, 'android', { pubsub_service_account: PUSH_ACCOUNT });
  maya = await seededMembership(h().db, play);
  other = await secondCreator(h().db, play);
  const spec = { platform: 'android', match: 'offer_id', value: mayaOfferId, product_id: 'pro_monthly', base_plan_id: 'monthly' } as const;
  await insertOfferCode(h().db, play, maya, spec);
  await insertOfferCode(h().db, play, maya, { platform: 'android', match: 'offer_tag', value: mayaTag });
  await insertOfferCode(h().db, play, other, { platform: 'android', match: 'offer_tag', value: otherTag });
});
test.after.always(async () => {
  await oidc?.close();
});

/** Google's answer for the token: the stub's subscription, with a second line item; `offers` per line item. */
function subscriptionWithOffers(token: string, offers: [Record<string, unknown> | null, Record<string, unknown> | null]) {
  setPlaySubscription(world(), token, newOrderId());
  const sub = world().google.subscriptions.get(token) as { lineItems: Record<string, unknown>[] };
  sub.lineItems = [{ ...sub.lineItems[0] }, { ...sub.lineItems[0], productId: 'pro_monthly' }].map((item, i) => ({
    ...item,
    ...(offers[i] ? { offerDetails: { basePlanId: 'monthly', offerTags: [], ...offers[i] } } : {}),
  }));
}

const conversionOf = (a: StoreAccount, key: string) => h().db('conversions').where({ app_id: a.app_id, conversion_key: key }).first();

test.serial('/sdk/purchase on Play: the offer id on the second line item attributes the subscription', async (t) => {
  const token = `sub-${randomUUID()}`;
  subscriptionWithOffers(token, [null, { offerId: mayaOfferId }]);
  const bought = await reportPurchase(h(), play, { platform: 'android', purchase_token: token, app_user_id: 'play-user-1' });
  t.like(bought.body, { event_type: 'INITIAL_PURCHASE', result: { processed: true } });
  t.like(await conversionOf(play, token), { attributed: true, creator_id: maya.creator_id, attribution_method: 'offer_code' });
});

test.serial('a Play notification with no app report: attributed by the offer tag after the wait', async (t) => {
  const token = `sub-${randomUUID()}`;
  subscriptionWithOffers(token, [{ offerTags: ['spring', mayaTag] }, null]);
  const messageId = String(Math.floor(Math.random() * 1e15));
  const data = Buffer.from(
    JSON.stringify({
      version: '1.0',
      packageName: play.packageName,
      eventTimeMillis: String(Date.now()),
      subscriptionNotification: { version: '1.0', notificationType: 4, purchaseToken: token, subscriptionId: 'pro_monthly' },
    }),
  ).toString('base64');
  const res = await request(h().baseUrl, 'POST', `/api/webhooks/google-play/${play.app_id}`, {
    body: { message: { data, messageId, publishTime: new Date().toISOString() }, subscription: 'projects/proj/subscriptions/svc-rtdn' },
    headers: {
      authorization: `Bearer ${oidc.sign({ aud: `${h().baseUrl}/api/webhooks/google-play/${play.app_id}`, email: PUSH_ACCOUNT })}`,
    },
  });
  t.is(res.status, 200, res.text);
  const outcome: PlayNotificationOutcome = await h()
    .temporal.workflow.getHandle(playNotificationWorkflowId(play.app_id, messageId))
    .result();
  t.deepEqual(
    outcome.results.map((r) => r.error),
    [null],
  );
  t.like(await conversionOf(play, token), { attributed: true, creator_id: maya.creator_id, attribution_method: 'offer_code' });
});

test.serial('tags of two creators (on one line item or two) attribute to none and show the conflict', async (t) => {
  for (const offers of [
    [{ offerTags: [mayaTag, otherTag] }, null],
    [{ offerTags: [otherTag] }, { offerId: mayaOfferId }],
  ] as const) {
    const token = `sub-${randomUUID()}`;
    subscriptionWithOffers(token, [offers[0], offers[1]]);
    const bought = await reportPurchase(h(), play, { platform: 'android', purchase_token: token, app_user_id: `conflict-${randomUUID()}` });
    t.like(bought.body, { result: { processed: false } });
    t.like(await conversionOf(play, token), { attributed: false });
    const event = await h()
      .db('purchase_events')
      .where({ app_id: play.app_id, conversion_id: (await conversionOf(play, token)).id })
      .first();
    t.regex(event.error, /^offer code conflict: .* belong to more than one creator; attributed to none/);
    t.is(await h().db('commissions').where({ conversion_id: event.conversion_id }).first(), undefined);
  }
});

test.serial("provider webhooks: offer_code matched by the event's store; renewal and refund follow the conversion", async (t) => {
  // The seeded demo account's app (its dashboard user reads the live events below).
  const { creator_id } = await h().db('creator_codes').where({ app_id: seed.app_id, code: seed.creator_code }).first();
  const rc = { ...seed, creator_id };
  const member = await seededMembership(h().db, rc);
  const iosValue = offerValue('rc_ios');
  const androidValue = offerValue('rc-android');
  await insertOfferCode(h().db, rc, member, { platform: 'ios', value: iosValue });
  await insertOfferCode(h().db, rc, member, { platform: 'android', match: 'offer_tag', value: androidValue });
  const send = (body: unknown) => sendWebhook(h().baseUrl, rc.app_id, rc.webhook_secret, body);

  const ios = subscription('rc-ios-user', null);
  const first = await send(ios('initial_purchase', { store: 'APP_STORE', offer_code: iosValue }));
  t.like(first.body, { received: true });
  t.is(first.body.error, undefined);
  const key = (await h().db('purchase_events').where({ id: first.body.event_id }).first()).conversion_id;
  t.like(await h().db('conversions').where({ id: key }).first(), {
    attributed: true,
    creator_id: member.creator_id,
    attribution_method: 'offer_code',
  });
  const renewal = ios('renewal', { store: 'APP_STORE', offer_code: null });
  t.like((await send(renewal)).body, { received: true });
  t.like((await send(ios('refund', { store: 'APP_STORE', transaction_id: renewal.event.transaction_id }))).body, { received: true });
  const kinds = await h().db('commissions').where({ conversion_id: key }).orderBy('created_at').select('kind', 'creator_id');
  t.deepEqual(
    kinds.map((k) => k.kind),
    ['earn', 'earn', kinds[2]?.kind],
  );
  t.not(kinds[2]?.kind, 'earn');
  t.true(kinds.every((k) => k.creator_id === member.creator_id));

  // The store decides which values are read: a Play event matches android values, an App Store one only ios values.
  const android = await send(subscription('rc-android-user', null)('initial_purchase', { store: 'PLAY_STORE', offer_code: androidValue }));
  t.like(
    await h()
      .db('conversions')
      .where({ id: (await h().db('purchase_events').where({ id: android.body.event_id }).first()).conversion_id })
      .first(),
    {
      attributed: true,
      attribution_method: 'offer_code',
    },
  );
  const crossed = await send(subscription('rc-crossed-user', null)('initial_purchase', { store: 'APP_STORE', offer_code: androidValue }));
  t.is(crossed.body.error, 'no referral code (organic purchase)');

  // Live events and recent conversions say "via offer code".
  const recent = await request(h().baseUrl, 'GET', `/api/agent/apps/${rc.app_id}/events/recent?limit=100`, { token: seed.agent_key });
  t.like(
    recent.body.webhooks.find((w: { event_id: string }) => w.event_id === first.body.event_id),
    { attributed: true, attribution_method: 'offer_code', referral_code: member.creator_code },
  );
  t.is(recent.body.webhooks.find((w: { event_id: string }) => w.event_id === crossed.body.event_id).attribution_method, null);
  const conversions = await request(h().baseUrl, 'GET', '/api/sdk/recent-conversions?app_user_id=rc-ios-user', { token: rc.sdk_key });
  t.is(conversions.status, 200, conversions.text);
  t.true(conversions.body.conversions.length >= 3);
  t.true(conversions.body.conversions.every((c: { attribution_method: string }) => c.attribution_method === 'offer_code'));
  const session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const page = await request(h().baseUrl, 'GET', `/dashboard/apps/${rc.app_id}/events`, {
    headers: { cookie: session.cookie, accept: 'text/html' },
  });
  t.is(page.status, 200);
  t.regex(page.text, /attributed via offer code/);
});
