// Each fraud signal through the real pipeline and the facts statement (db/fraud-facts.ts), over HTTP (issue 40):
// self-referral by the address and device a creator joined from or signed in to the portal from; click injection
// from the Play Install Referrer times track-install carried; a leaked code at its twentieth redeemer without a
// click; and an approval before the holding period ends, which leaves the commission to its release.
import test, { type ExecutionContext } from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { decideReview } from '../../actions/commission-reviews.js';
import { addCreator, assertExactBooks, linkClick, type Creator } from '../helpers/conversions.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { request } from '../helpers/http.js';
import { fundGenerously } from '../helpers/provider.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';
import { REVIEWER, reviewPipeline } from '../helpers/review-pipeline.js';

const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true', HOLDING_PERIOD_DAY_MS: '800' } });
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const actor = REVIEWER;
const { send, earnOf, reviewsOf } = reviewPipeline(h, seed);
const reviewOf = async (commissionId: string) => (await reviewsOf(commissionId))[0];

test.before(async () => {
  await h.ready();
  await fundGenerously(h().db, seed.org_id);
  await h().db('campaigns').where('id', seed.campaign_id).update({ holding_period_days: 30 });
});

test.afterEach.always(async (t) => {
  await assertExactBooks(t, h().db, seed.org_id);
});

/** An Android install from `ip` through a link click of `creator`, identified as `user`, then its purchase (no code). */
async function buyFrom(t: ExecutionContext, creator: Creator, ip: string, user: string, installExtra: Record<string, unknown> = {}) {
  const click = await linkClick(h().db, seed, creator, { ip: '198.51.100.200', userAgent: PHONE_UA, platform: 'android' });
  const sdk = sdkClient(h().baseUrl, seed.sdk_key, ip);
  const deviceId = randomUUID();
  const install = await sdk.post('/track-install', {
    platform: 'android',
    device_id: deviceId,
    os_version: '14',
    click_id: click.id,
    referral_code: creator.code,
    ...installExtra,
  });
  t.true(install.body.attributed, install.text);
  const identified = await sdk.post('/identify', { app_user_id: user, device_id: deviceId, platform: 'android' });
  t.is(identified.status, 200, identified.text);
  await send(t, subscription(user, null)('initial_purchase'));
  return { earn: await earnOf(user), clickedAt: new Date(click.clicked_at) };
}

test.serial('self-referral by address: the install came from where the creator joined, on the same phone', async (t) => {
  const joined = await request(h().baseUrl, 'POST', `/api/public/campaigns/${seed.campaign_id}/join`, {
    body: { name: 'Sam', email: `sam+${randomBytes(4).toString('hex')}@example.com` },
    headers: { 'x-forwarded-for': '203.0.113.50', 'user-agent': PHONE_UA },
  });
  t.is(joined.status, 201, joined.text);
  const creator = (await h().db('creator_codes').where({ creator_id: joined.body.creator_id, campaign_id: seed.campaign_id }).first()) as {
    id: string;
    creator_id: string;
    code: string;
  };
  const self = { creatorId: creator.creator_id, creatorCodeId: creator.id, code: creator.code };
  const { earn } = await buyFrom(t, self, '203.0.113.50', 'sig-join');
  t.like(earn, { creator_id: self.creatorId, review_state: 'held', status: 'reserved' });
  const review = await reviewOf(earn.id);
  t.like(review, { action: 'hold', status: 'open' });
  t.regex(
    review.signals[0].evidence,
    new RegExp(
      '^The attributed install came from 203\\.0\\.113\\.50, where the creator joined the campaign .* before the install, ' +
        'with the same platform and OS version\\.$',
    ),
  );

  // Another address: nothing raised.
  const { earn: other } = await buyFrom(t, self, '203.0.113.51', 'sig-join-elsewhere');
  t.is(other.review_state, null);
});

test.serial('self-referral by address: a portal sign-in from the same IPv6 /64', async (t) => {
  const creator = await addCreator(h().db, seed);
  const email = (await h().db('creators').where('id', creator.creatorId).first()).email as string;
  await signInCreator(h().baseUrl, h().db, email, undefined, { ip: '2001:db8:5:1::10', userAgent: PHONE_UA });
  const { earn } = await buyFrom(t, creator, '2001:db8:5:1:aaaa::99', 'sig-portal');
  t.is(earn.review_state, 'held');
  t.regex(
    (await reviewOf(earn.id)).signals[0].evidence,
    /^The attributed install came from the IPv6 network 2001:db8:5:1::\/64, where the creator signed in to the creator portal/,
  );
});

test.serial('click injection: a click recorded after Google Play had begun the install is flagged (the default)', async (t) => {
  const creator = await addCreator(h().db, seed);
  const beganSeconds = Math.floor(Date.now() / 1000) - 150;
  const { earn } = await buyFrom(t, creator, '203.0.113.60', 'sig-click', {
    install_referrer: { install_begin_timestamp_server_seconds: beganSeconds, referrer_click_timestamp_seconds: beganSeconds - 40 },
  });
  t.is(earn.review_state, 'flagged');
  const review = await reviewOf(earn.id);
  t.deepEqual(
    review.signals.map((s: { signal: string }) => s.signal),
    ['click_injection'],
  );
  t.regex(review.signals[0].evidence, /^The referral click was recorded 1\d\d seconds after Google Play had begun the install\.$/);
});

test.serial('a leaked code: the twentieth user redeeming it without a click or link is flagged, the nineteen before are not', async (t) => {
  const creator = await addCreator(h().db, seed);
  for (let i = 1; i <= 20; i++) await send(t, subscription(`sig-leak-${i}`, creator.code)('initial_purchase'));
  for (let i = 1; i <= 19; i++) t.is((await earnOf(`sig-leak-${i}`)).review_state, null, `purchase ${i}`);
  const last = await earnOf('sig-leak-20');
  t.is(last.review_state, 'flagged');
  t.regex((await reviewOf(last.id)).signals[0].evidence, /^20 of 20 users who redeemed this creator's code in the last 7 days \(100%\)/);
});

test.serial('approved before its holding period ends, a held commission stays reserved until its release', async (t) => {
  const { db } = h();
  await db('campaigns').where('id', seed.campaign_id).update({ holding_period_days: 4 });
  t.teardown(() => db('campaigns').where('id', seed.campaign_id).update({ holding_period_days: 30 }));
  const creator = await addCreator(db, seed);
  const body = subscription('sig-early', creator.code)('initial_purchase');
  body.event.subscriber_attributes.$email.value = (await db('creators').where('id', creator.creatorId).first()).email;
  await send(t, body);
  const earn = await earnOf('sig-early');
  t.is(earn.review_state, 'held');
  await decideReview(db, { orgId: seed.org_id, reviewId: (await reviewOf(earn.id)).id, decision: 'approve', actor });
  t.like(await db('commissions').where('id', earn.id).first(), { status: 'reserved', review_state: 'approved' }, 'not payable early');
  await waitFor(async () => (await db('commissions').where('id', earn.id).first()).status === 'payable', 'its release', 20_000);
  t.true(new Date((await db('commissions').where('id', earn.id).first()).payable_at).getTime() <= Date.now());
});
