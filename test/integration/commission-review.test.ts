// Review of suspicious commissions through the real pipeline (issue 40, docs/fraud-signals.md): provider webhooks
// and SDK calls over HTTP, the worker earning and releasing on Temporal, payout runs. A creator buying through their
// own code is held and voided; an install farm from one address is flagged, and held when the campaign says so, then
// approved and paid by the next payout run; a clean creator is never held; a redelivery raises no second review; a
// refund of a held commission reverses it once; the books are exact throughout.
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { decideReview } from '../../actions/commission-reviews.js';
import { sendDueOwnerDigests } from '../../actions/owner-review-digests.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { mailsTo } from '../helpers/creator-mail.js';
import { addCampaign, addCreator, assertExactBooks, linkClick, seededCreator, type Creator } from '../helpers/conversions.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { fundGenerously } from '../helpers/provider.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';
import { REVIEWER, reviewPipeline, withEmail } from '../helpers/review-pipeline.js';

const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true', HOLDING_PERIOD_DAY_MS: '800' } });
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Farm 1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const actor = REVIEWER;
const { send, earnOf, reviewsOf: reviewOf } = reviewPipeline(h, seed);

test.before(async () => {
  await h.ready();
  await fundGenerously(h().db, seed.org_id);
  await h().db('campaigns').where('id', seed.campaign_id).update({ holding_period_days: 1 });
});

test.afterEach.always(async (t) => {
  await assertExactBooks(t, h().db, seed.org_id);
});

async function creatorEmail(c: Creator): Promise<string> {
  return (await h().db('creators').where('id', c.creatorId).first()).email;
}

/** `count` attributed installs of `creator` from one address on one phone model, the first identified as `user`. */
async function farmInstalls(t: ExecutionContext, creator: Creator, ip: string, user: string, count = 4): Promise<void> {
  const sdk = sdkClient(h().baseUrl, seed.sdk_key, ip);
  let first: string | undefined;
  for (let i = 0; i < count; i++) {
    const deviceId = randomUUID();
    first ??= deviceId;
    const click = await linkClick(h().db, seed, creator, { ip, userAgent: ANDROID_UA, platform: 'android' });
    const res = await sdk.post('/track-install', {
      click_id: click.id,
      platform: 'android',
      device_id: deviceId,
      device_brand: 'Acme',
      device_model: 'Farm 1',
      os_version: '14',
      referral_code: creator.code,
    });
    t.true(res.body.attributed, res.text);
  }
  const identified = await sdk.post('/identify', { app_user_id: user, device_id: first, platform: 'android' });
  t.is(identified.status, 200, identified.text);
}

test.serial('a creator buying through their own code: held, never payable, then voided with the reservation released once', async (t) => {
  const { db } = h();
  const self = await addCreator(db, seed);
  const email = await creatorEmail(self);
  // Upper case, the same mailbox: normalised before comparing.
  await send(t, withEmail(subscription('rev-self', self.code)('initial_purchase'), email.toUpperCase()));
  const earn = await earnOf('rev-self');
  t.like(earn, { status: 'reserved', review_state: 'held' });
  const [review] = await reviewOf(earn.id);
  t.like(review, { action: 'hold', status: 'open', creator_id: self.creatorId, raised_at_step: 'earn' });
  t.is(review.signals[0].signal, 'self_referral');
  t.regex(review.signals[0].evidence, /the creator's own address/);
  t.false(review.signals[0].evidence.includes(email), 'the evidence names no address of the creator');

  // The holding period ends (one day of 800 ms): the release skips it, and so does a payout run.
  await new Promise((r) => setTimeout(r, 2500));
  t.like(await db('commissions').where('id', earn.id).first(), { status: 'reserved', review_state: 'held', payout_id: null });
  await connectTestAccount(db, self.creatorId);
  const run = await runPayoutRun({ db }, { orgId: seed.org_id, runId: `rev-self-${earn.id}` });
  t.false(
    run.payouts.some((p) => p.creator_id === self.creatorId),
    'a payout run skips a held line',
  );

  const voided = await decideReview(db, { orgId: seed.org_id, reviewId: review.id, decision: 'void', note: 'own purchase', actor });
  t.is(voided.status, 'voided');
  t.like(await db('commissions').where('id', earn.id).first(), { status: 'reversed', review_state: 'voided' });
  const again = await decideReview(db, { orgId: seed.org_id, reviewId: review.id, decision: 'void', actor });
  t.is(again.status, 'voided', 'a repeat answers the first decision');
  await t.throwsAsync(decideReview(db, { orgId: seed.org_id, reviewId: review.id, decision: 'approve', actor }), {
    message: /already voided/,
  });
  const releases = await db('wallet_ledger').where({ commission_id: earn.id, entry_type: 'reversal' });
  t.is(releases.length, 1, 'the reservation is released once');
  t.is(releases[0].memo, 'voided after review');
  const told = await db('creator_digest_items').where({ commission_id: earn.id, kind: 'commission_not_confirmed' });
  t.is(told.length, 1, 'the creator is told once, in their next digest');
  t.is(Number(told[0].amount_micros), Number(earn.commission_micros));
  const audit = await db('audit_log').where({ target_id: review.id }).select('action');
  t.deepEqual(
    audit.map((a) => a.action),
    ['commission_review.voided'],
  );
});

test.serial('an install farm from one address is flagged by default and paid as usual', async (t) => {
  const { db } = h();
  const farmer = await addCreator(db, seed);
  await farmInstalls(t, farmer, '203.0.113.7', 'rev-farm-flag');
  await send(t, subscription('rev-farm-flag', null)('initial_purchase'));
  const earn = await earnOf('rev-farm-flag');
  t.like(earn, { creator_id: farmer.creatorId, review_state: 'flagged' });
  const [review] = await reviewOf(earn.id);
  t.like(review, { action: 'flag', status: 'open' });
  t.deepEqual(
    review.signals.map((s: { signal: string }) => s.signal),
    ['install_farm'],
  );
  t.regex(review.signals[0].evidence, /^4 installs from 203\.0\.113\.7 with one device model in (under a minute|\d+ minutes?)\.$/);
  await waitFor(
    async () => (await db('commissions').where('id', earn.id).first()).status === 'payable',
    'a flagged commission released',
    20_000,
  );
});

test.serial(
  'set to hold, the farm is held past its holding period; approved, it is payable at once and the next run pays it',
  async (t) => {
    const { db } = h();
    await db('campaigns')
      .where('id', seed.campaign_id)
      .update({ fraud_signal_actions: JSON.stringify({ install_farm: 'hold' }) });
    t.teardown(() => db('campaigns').where('id', seed.campaign_id).update({ fraud_signal_actions: '{}' }));
    const farmer = await addCreator(db, seed);
    await connectTestAccount(db, farmer.creatorId);
    await farmInstalls(t, farmer, '2001:db8:77::1', 'rev-farm-hold', 5);
    await send(t, subscription('rev-farm-hold', null)('initial_purchase'));
    const earn = await earnOf('rev-farm-hold');
    t.like(earn, { review_state: 'held', status: 'reserved' });
    const [review] = await reviewOf(earn.id);
    t.regex(review.signals[0].evidence, /^5 installs from the IPv6 network 2001:db8:77::\/64 with one device model/);

    await new Promise((r) => setTimeout(r, 2500));
    t.like(await db('commissions').where('id', earn.id).first(), { status: 'reserved' }, 'held past its holding period');
    const first = await runPayoutRun({ db }, { orgId: seed.org_id, runId: `rev-hold-1-${earn.id}` });
    t.false(first.payouts.some((p) => p.creator_id === farmer.creatorId));

    const approved = await decideReview(db, { orgId: seed.org_id, reviewId: review.id, decision: 'approve', actor });
    t.is(approved.status, 'approved');
    t.like(await db('commissions').where('id', earn.id).first(), { status: 'payable', review_state: 'approved' });
    const second = await runPayoutRun({ db }, { orgId: seed.org_id, runId: `rev-hold-2-${earn.id}` });
    t.true(second.payouts.some((p) => p.creator_id === farmer.creatorId));
    const paid = await db('commissions').where('id', earn.id).first();
    t.is(paid.status, 'paid');
    t.truthy(
      await db('payouts')
        .where({ id: paid.payout_id, run_id: `rev-hold-2-${earn.id}` })
        .first(),
      'paid by the second run',
    );
    await t.throwsAsync(decideReview(db, { orgId: seed.org_id, reviewId: review.id, decision: 'void', actor }), {
      message: /already approved/,
    });
  },
);

test.serial('a clean creator is never held; a redelivered event raises no second review', async (t) => {
  const { db } = h();
  const seeded = await seededCreator(db, seed);
  await send(t, subscription('rev-clean', seeded.code)('initial_purchase'));
  const clean = await earnOf('rev-clean');
  t.is(clean.review_state, null);
  t.deepEqual(await reviewOf(clean.id), []);

  const self = await addCreator(db, seed);
  const body = withEmail(subscription('rev-redelivered', self.code)('initial_purchase'), await creatorEmail(self));
  await send(t, body);
  await send(t, body);
  const earn = await earnOf('rev-redelivered');
  t.is((await reviewOf(earn.id)).length, 1);
  t.is((await db('commissions').where({ conversion_id: earn.conversion_id, kind: 'earn' })).length, 1);
});

test.serial('a refund of a held commission reverses it once; a void after it releases nothing more', async (t) => {
  const { db } = h();
  const self = await addCreator(db, seed);
  const sub = subscription('rev-refund', self.code);
  const purchase = withEmail(sub('initial_purchase'), await creatorEmail(self));
  await send(t, purchase);
  const earn = await earnOf('rev-refund');
  t.is(earn.review_state, 'held');
  await send(t, sub('refund', { transaction_id: purchase.event.transaction_id, price: -Number(purchase.event.price) }));
  t.like(await db('commissions').where('id', earn.id).first(), { status: 'reversed' });
  const [review] = await reviewOf(earn.id);
  await decideReview(db, { orgId: seed.org_id, reviewId: review.id, decision: 'void', actor });
  t.is((await db('wallet_ledger').where({ commission_id: earn.id, entry_type: 'reversal' })).length, 1);
});

test.serial(
  'refunds known by the end of the holding period hold the rest of a creator’s commissions before they become payable',
  async (t) => {
    const { db } = h();
    const baseline = await addCreator(db, seed);
    for (let i = 0; i < 32; i++) await send(t, subscription(`rev-base-${i}`, baseline.code)('initial_purchase'));
    const campaignId = await addCampaign(db, seed);
    await db('campaigns')
      .where('id', campaignId)
      .update({ holding_period_days: 6, fraud_signal_actions: JSON.stringify({ refund_abuse: 'hold', self_referral: 'flag' }) });
    const refunder = await addCreator(db, seed, campaignId);
    const subs = Array.from({ length: 10 }, (_, i) => subscription(`rev-refunder-${i}`, refunder.code));
    const purchases = subs.map((sub) => sub('initial_purchase'));
    // One of them the creator bought: with self-referral set to flag, it is flagged at the earn.
    withEmail(purchases[8]!, await creatorEmail(refunder));
    for (const p of purchases) await send(t, p);
    for (const [i, sub] of subs.slice(0, 4).entries()) {
      await send(t, sub('refund', { transaction_id: purchases[i]!.event.transaction_id, price: -Number(purchases[i]!.event.price) }));
    }
    const kept = await earnOf('rev-refunder-9');
    t.is(kept.review_state, null, 'at the earn, no refund was known yet');
    await waitFor(
      async () => (await db('commissions').where('id', kept.id).first()).review_state === 'held',
      'the release step to hold it',
      20_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    t.like(await db('commissions').where('id', kept.id).first(), { status: 'reserved', review_state: 'held' });
    const [review] = await reviewOf(kept.id);
    t.like(review, { action: 'hold', raised_at_step: 'release', status: 'open', escalated_at: null });
    t.regex(review.signals[0].evidence, /^4 of 10 purchases through this creator were refunded \(40%\)/);

    // The flagged one: a flag at the earn, a hold at the release, its signals gained once.
    const own = await earnOf('rev-refunder-8');
    t.like(await db('commissions').where('id', own.id).first(), { status: 'reserved', review_state: 'held' });
    const [escalated] = await reviewOf(own.id);
    t.like(escalated, { action: 'hold', raised_at_step: 'earn', status: 'open' });
    t.truthy(escalated.escalated_at, 'a flag that became a hold is news again');
    t.deepEqual(
      escalated.signals.map((s: { signal: string }) => s.signal),
      ['self_referral', 'refund_abuse'],
    );
    // The owners' digest lists it among the held ones.
    await sendDueOwnerDigests({ db }, { everyMs: 1, dashboardUrl: h().config.DASHBOARD_URL });
    const [digest] = (await mailsTo(db, seed.user_email)).filter((m) => m.template === 'owner_review_digest');
    const held = digest!.body_text.split('Flagged:')[0]!;
    t.regex(held, /self referral: The purchaser's email[\s\S]*refund abuse: 4 of 10 purchases/);
  },
);
