// POST /api/webhooks/subprovider/{app_id}: who a purchase is attributed to (spec "Inbound webhooks": the code from
// `svc_code`, else the attributed click of the event's app user id; a user who converted stays with that creator;
// codes attribute only while the campaign is active).
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import {
  addCampaign,
  addCreator,
  commissionsOf,
  linkClick,
  conversionsOfUser,
  seededCreator,
  type Creator,
} from '../helpers/conversions.js';
import type { JsonResponse } from '../helpers/http.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { sendWebhook, subscription, type ProviderBody } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' } });
let seeded: Creator;
let other: Creator;
let ipCounter = 1;
const nextIp = () => `198.51.100.${ipCounter++}`;

test.before(async () => {
  await h.ready();
  seeded = await seededCreator(h().db, seed);
  other = await addCreator(h().db, seed);
});

const send = (body: ProviderBody): Promise<JsonResponse> => sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
const userAttribution = (user: string) => h().db('user_attributions').where({ app_id: seed.app_id, app_user_id: user }).first();

async function sendOk(t: ExecutionContext, body: ProviderBody): Promise<JsonResponse> {
  const res = await send(body);
  t.is(res.status, 200, res.text);
  t.falsy(res.body.error, res.text);
  return res;
}

/** The real SDK flow: a link click of `creator`, track-install from the same network, identify with the device. */
async function identifyAfterClick(t: ExecutionContext, user: string, creator: Creator): Promise<string> {
  const ip = nextIp();
  const click = await linkClick(h().db, seed, creator, { ip, userAgent: IPHONE_UA, platform: 'ios' });
  const deviceId = randomUUID();
  const install = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', { platform: 'ios', device_id: deviceId });
  t.true(install.body.attributed, install.text);
  const identified = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', {
    app_user_id: user,
    device_id: deviceId,
    platform: 'ios',
  });
  t.true(identified.body.attribution_backfilled, identified.text);
  return click.id;
}

test('without a code, the attributed click of the app user (track-install + identify) attributes the purchase', async (t) => {
  const clickId = await identifyAfterClick(t, 'attr-click', other);
  t.like(await userAttribution('attr-click'), { click_id: clickId, creator_id: other.creatorId, converted_at: null });

  await sendOk(t, subscription('attr-click', null)('initial_purchase'));
  const [c] = await conversionsOfUser(h().db, seed.app_id, 'attr-click');
  t.like(c, {
    attributed: true,
    creator_id: other.creatorId,
    creator_code_id: other.creatorCodeId,
    referral_code: other.code,
    attribution_method: 'ip_device_match',
  });
  t.is((await commissionsOf(h().db, c.id)).length, 1);
  t.truthy((await userAttribution('attr-click')).converted_at, 'the first attributed purchase marks the user converted');
});

test('a code on the purchase wins over the click of a user who has not converted yet', async (t) => {
  await identifyAfterClick(t, 'attr-click-then-code', other);
  await sendOk(t, subscription('attr-click-then-code', seed.creator_code)('initial_purchase'));
  const [c] = await conversionsOfUser(h().db, seed.app_id, 'attr-click-then-code');
  t.like(c, { attributed: true, creator_id: seeded.creatorId, referral_code: seed.creator_code, attribution_method: 'purchase_code' });
});

test(
  'a user who converted for a creator stays with that creator: ' + "a new purchase with another creator's code goes to the first",
  async (t) => {
    await sendOk(t, subscription('attr-sticky', seed.creator_code)('initial_purchase'));
    const second = subscription('attr-sticky', other.code)('initial_purchase');
    await sendOk(t, second);
    const rows = await conversionsOfUser(h().db, seed.app_id, 'attr-sticky');
    t.is(rows.length, 2);
    const later = rows.find((c) => c.conversion_key === second.event.original_transaction_id);
    t.like(later, {
      attributed: true,
      creator_id: seeded.creatorId,
      referral_code: seed.creator_code,
      creator_code_id: seeded.creatorCodeId,
    });
    const [earn] = await commissionsOf(h().db, later.id);
    t.is(earn.creator_id, seeded.creatorId);
    t.like(await userAttribution('attr-sticky'), { creator_id: seeded.creatorId, referral_code: seed.creator_code });
  },
);

test('two first purchases for two creators racing end with both conversions attributed to one creator', async (t) => {
  const rounds = 12;
  await Promise.all(
    Array.from({ length: rounds }, async (_, i) => {
      const user = `attr-race-${i}`;
      const [a, b] = await Promise.all([
        send(subscription(user, seed.creator_code)('initial_purchase')),
        send(subscription(user, other.code)('initial_purchase')),
      ]);
      t.is(a.status, 200, a.text);
      t.is(b.status, 200, b.text);
      const rows = await conversionsOfUser(h().db, seed.app_id, user);
      t.is(rows.length, 2, user);
      t.true(
        rows.every((c) => c.attributed),
        user,
      );
      t.is(new Set(rows.map((c) => c.creator_id)).size, 1, `${user}: ${rows.map((c) => c.referral_code).join(', ')}`);
      t.is((await userAttribution(user)).creator_id, rows[0].creator_id, user);
    }),
  );
});

test('codes attribute only while the campaign is active: a paused campaign answers affiliate not found', async (t) => {
  const campaignId = await addCampaign(h().db, seed);
  const creator = await addCreator(h().db, seed, campaignId);
  await sendOk(t, subscription('attr-paused-converted', creator.code)('initial_purchase'));
  await h().db('campaigns').where('id', campaignId).update({ status: 'paused' });

  const res = await send(subscription('attr-paused', creator.code)('initial_purchase'));
  t.is(res.status, 200);
  t.is(res.body.error, `affiliate not found for code ${creator.code}`);
  const [c] = await conversionsOfUser(h().db, seed.app_id, 'attr-paused');
  t.like(c, { attributed: false, campaign_id: null, creator_id: null, referral_code: null });
  t.is((await commissionsOf(h().db, c.id)).length, 0);
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
    processing_status: 'error',
    attributed: false,
    conversion_id: c.id,
  });

  // A user who converted for that creator earlier is not attributed either while the campaign is paused.
  const again = await send(subscription('attr-paused-converted', null)('initial_purchase'));
  t.is(again.body.error, `affiliate not found for code ${creator.code}`);
  const rows = await conversionsOfUser(h().db, seed.app_id, 'attr-paused-converted');
  t.deepEqual(
    rows.map((x) => x.attributed),
    [true, false],
  );

  await h().db('campaigns').where('id', campaignId).update({ status: 'active' });
  await sendOk(t, subscription('attr-reactivated', creator.code)('initial_purchase'));
  t.like((await conversionsOfUser(h().db, seed.app_id, 'attr-reactivated'))[0], { attributed: true, creator_id: creator.creatorId });
});

test(
  'organic (no code, no click): no referral code (organic ' + 'purchase); the conversion is kept unattributed without commission',
  async (t) => {
    const sub = subscription('attr-organic', null);
    const res = await send(sub('initial_purchase'));
    t.is(res.status, 200);
    t.deepEqual(res.body, { received: true, event_id: res.body.event_id, error: 'no referral code (organic purchase)' });
    const [c] = await conversionsOfUser(h().db, seed.app_id, 'attr-organic');
    t.like(c, { attributed: false, status: 'active', referral_code: null, creator_id: null, billing_cycles: 1 });
    t.is((await commissionsOf(h().db, c.id)).length, 0);
    t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
      processing_status: 'processed',
      organic: true,
      attributed: false,
    });
    t.is(await userAttribution('attr-organic'), undefined);

    const renewal = await send(sub('renewal'));
    t.is(renewal.body.error, 'no referral code (organic purchase)');
    t.is((await commissionsOf(h().db, c.id)).length, 0);
  },
);

test("aliases: a new app_user_id whose aliases include an attributed user is attributed to that user's creator", async (t) => {
  await identifyAfterClick(t, 'attr-alias-old', other);
  await sendOk(t, subscription('attr-alias-new', null)('initial_purchase', { aliases: ['$RCAnonymousID:0f0f0f0f', 'attr-alias-old'] }));
  const [c] = await conversionsOfUser(h().db, seed.app_id, 'attr-alias-new');
  t.like(c, { attributed: true, creator_id: other.creatorId, referral_code: other.code });
  t.like(await userAttribution('attr-alias-new'), { creator_id: other.creatorId });
});

test('original_app_user_id: a purchase under a new app_user_id of a converted original user stays with that creator', async (t) => {
  await sendOk(t, subscription('attr-original', other.code)('initial_purchase'));
  await sendOk(
    t,
    subscription('attr-original-new', seed.creator_code)('initial_purchase', { original_app_user_id: 'attr-original', aliases: [] }),
  );
  const [c] = await conversionsOfUser(h().db, seed.app_id, 'attr-original-new');
  t.like(c, { attributed: true, creator_id: other.creatorId, referral_code: other.code });
});
