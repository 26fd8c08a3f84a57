// Who hears about a review of a suspicious commission (issue 40; docs/fraud-signals.md "What the creator sees", "The
// owners' digest", "Bonus awards"), with a commission held through the real pipeline: a provider webhook whose
// `$email` subscriber attribute is the creator's own address. The creator's portal says "under review" without the
// rule (campaign page, the owed card's own line, nothing in "Held"), then the neutral void wording after a void; the
// organization's owners get one digest listing it (a member none, an organization without reviews none, a second
// pass nothing); a milestone award made with it carries its signal in fraud_flags; the wallet views count it apart.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { decideReview } from '../../actions/commission-reviews.js';
import { sendDueOwnerDigests } from '../../actions/owner-review-digests.js';
import { startOwnerReviewDigest } from '../../jobs/owner-review-digest.js';
import { createLogger } from '../../runtime/logger.js';
import { getCreatorMoneySummary } from '../../db/creator-balances.js';
import { creatorOwedByOrg } from '../../db/creator-owed.js';
import { listCampaignCommissions } from '../../db/commission-log.js';
import { NEUTRAL_REVIEW_REASON, NEUTRAL_VOID_REASON } from '../../lib/fraud-signals/types.js';
import { addMembership, createUser } from '../../db/organizations-writes.js';
import { hashPassword } from '../../lib/passwords.js';
import { mailsTo } from '../helpers/creator-mail.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const h = useHarness(test);

const PASSWORD = 'owner password 123';

async function addUser(app: SeededApp, role: 'owner' | 'member'): Promise<string> {
  const email = `${role}-${randomUUID()}@example.com`;
  const user = await createUser(h().db, { email, passwordHash: await hashPassword(PASSWORD), name: role, emailVerified: true });
  await addMembership(h().db, app.org_id, user.id, role);
  return email;
}

/** A purchase through the creator's code whose provider event names the creator's own address in `$email`. */
async function selfPurchase(app: SeededApp, creatorEmail: string): Promise<{ id: string; commission_micros: number }> {
  const sub = subscription(`self-${randomUUID()}`, app.creator_code);
  const body = sub('initial_purchase');
  // Case differs: the signal compares normalised addresses.
  body.event.subscriber_attributes.$email = { value: creatorEmail.toUpperCase(), updated_at_ms: Date.now() };
  const sent = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, body);
  if (sent.status !== 200) throw new Error(sent.text);
  let row: { id: string; commission_micros: string; review_state: string | null } | undefined;
  await waitFor(
    async () => {
      row = await h()
        .db('commissions')
        .where({ org_id: app.org_id, kind: 'earn' })
        .whereNotIn('id', [...earned])
        .first('id', 'commission_micros', 'review_state');
      return row !== undefined;
    },
    'the earn',
    30_000,
  );
  earned.add(row!.id);
  return { id: row!.id, commission_micros: Number(row!.commission_micros) };
}
const earned = new Set<string>();

const usd = (m: number) => `$${(m / 1e6).toFixed(2)} USD`;
const section = (html: string, id: string) => {
  const at = html.indexOf(`id="${id}"`);
  return html.slice(at, html.indexOf('</table>', at));
};

test('held for self-referral: portal under review and voided in neutral words, owners mailed once, award flags', async (t) => {
  const { db } = h();
  const a = await seedApp(db);
  const creatorEmail = (await db('creators').where('id', a.creator_id).first('email')).email as string;
  await db('bonus_rules').insert({ campaign_id: a.campaign_id, name: 'First sale', threshold_conversions: 1, bonus_micros: 5_000_000 });
  const owner = await addUser(a, 'owner');
  const member = await addUser(a, 'member');
  const quiet = await seedApp(db);
  const quietOwner = await addUser(quiet, 'owner');

  const earn = await selfPurchase(a, creatorEmail);
  const commission = await db('commissions').where('id', earn.id).first('status', 'review_state', 'payable_at');
  t.like(commission, { status: 'reserved', review_state: 'held' }, 'held, still reserved');
  const review = await db('commission_reviews').where('commission_id', earn.id).first();
  t.like(review, { action: 'hold', status: 'open', creator_id: a.creator_id, campaign_id: a.campaign_id });
  t.deepEqual(
    review.signals.map((s: { signal: string }) => s.signal),
    ['self_referral'],
  );
  const evidence = review.signals[0].evidence as string;

  // Bonus awards keep their own review: the award made at this earn carries the commission review's signal.
  const award = await db('bonus_awards').where({ campaign_id: a.campaign_id, creator_id: a.creator_id }).first('status', 'fraud_flags');
  t.is(award.status, 'earned');
  t.deepEqual(award.fraud_flags, {
    signals: [{ review_id: review.id, commission_id: earn.id, signal: 'self_referral', evidence }],
  });

  // The creator's portal: "under review" with the neutral reason, never the rule; the owed card's own line.
  const creator = await signInCreator(h().baseUrl, db, creatorEmail, '198.51.100.61');
  const campaignUrl = `${h().baseUrl}/dashboard/creator/campaigns/${a.campaign_id}`;
  const page = await creator.browser.fetch(campaignUrl);
  t.is(page.status, 200);
  const lines = section(page.text, 'commissions');
  t.regex(lines, /<tr data-state="under_review">/);
  t.regex(lines, /data-state="under_review">Under review<\/span>/);
  t.true(lines.includes(NEUTRAL_REVIEW_REASON), 'the neutral reason');
  t.notRegex(lines, /email|self|referral|held until|prepaid wallet/i, 'no rule, no evidence, no release date');
  t.false(page.text.includes(evidence));

  const home = await creator.browser.fetch(`${h().baseUrl}/dashboard/creator`);
  const card = section(home.text, `owed-${a.org_id}`);
  t.regex(card, new RegExp(`id="under-review-${a.org_id}">\\${usd(earn.commission_micros)} <span class="muted">\\(1 commission `));
  t.regex(card, /is checking before it can be paid; no action is needed from you\)/);
  t.regex(card, new RegExp(`id="held-${a.org_id}">\\$0\\.00 USD<`), 'not counted as held in the holding period');
  t.regex(card, new RegExp(`id="payable-${a.org_id}">\\$0\\.00 USD`));
  const [owed] = (await creatorOwedByOrg(db, a.creator_id)).filter((o) => o.org_id === a.org_id);
  t.like(owed, {
    held_micros: 0,
    held_count: 0,
    next_release_at: null,
    under_review_micros: earn.commission_micros,
    under_review_count: 1,
  });

  // The developer's money views count it apart from the holding period; the commission log carries the mark.
  const money = await getCreatorMoneySummary(db, a.org_id);
  t.deepEqual(money.commissions.under_review, { count: 1, micros: earn.commission_micros });
  t.deepEqual(money.commissions.held, { count: 0, micros: 0 });
  const [logged] = await listCampaignCommissions(db, a.campaign_id, { limit: 5 });
  t.like(logged, { id: earn.id, status: 'reserved', review_state: 'held' });
  const dash = await signInDashboard(h().baseUrl, owner, PASSWORD);
  const wallet = await dash.browser.fetch(`${h().baseUrl}/dashboard/wallet`);
  t.is(wallet.status, 200);
  const heldTable = section(wallet.text, 'held');
  t.regex(heldTable, /held for review<\/span>/);
  t.regex(heldTable, /after approval, from <time/, 'its date is no promise');
  t.regex(wallet.text, new RegExp(`id="payouts-under-review">\\${usd(earn.commission_micros)} \\(1\\)<`));
  t.regex(wallet.text, /id="payouts-held">\$0\.00 USD \(0\)</);
  const creatorPage = await dash.browser.fetch(`${h().baseUrl}/dashboard/creators/${a.creator_id}`);
  t.regex(creatorPage.text, new RegExp(`id="creator-under-review">\\${usd(earn.commission_micros)} \\(1\\)<`));

  // The owners' digest: one mail to the owner listing the review; none to a member; none where nothing was raised;
  // a second pass (its period over) sends nothing twice.
  const opts = { everyMs: 1000, dashboardUrl: h().config.DASHBOARD_URL };
  await sendDueOwnerDigests({ db }, opts);
  const digests = async (email: string) => (await mailsTo(db, email)).filter((m) => m.template === 'owner_review_digest');
  const sent = await digests(owner);
  t.is(sent.length, 1);
  const mail = sent[0]!;
  t.regex(mail.subject, /: 1 commission to review \(1 held\)$/);
  t.true(mail.body_text.includes(`- Test Creator, Test campaign (`), mail.body_text);
  t.true(mail.body_text.includes(`${usd(earn.commission_micros)} commission HELD until you decide`));
  t.true(mail.body_text.includes(`self referral: ${evidence}`));
  t.true(mail.body_text.includes(`${h().config.DASHBOARD_URL}/reviews`));
  t.deepEqual(await digests(member), []);
  t.deepEqual(await digests(quietOwner), []);
  await new Promise((r) => setTimeout(r, 1100));
  await sendDueOwnerDigests({ db }, opts);
  t.is((await digests(owner)).length, 1, 'nothing new: nothing sent');
  const audit = await db('audit_log').where({ org_id: a.org_id, action: 'commission_review.owner_digest_sent' });
  t.is(audit.length, 1);
  t.deepEqual(audit[0].details.review_ids, [review.id]);

  // A second review later: the worker's pass (the job, its period shortened) mails it alone, since the last digest.
  const second = await selfPurchase(a, creatorEmail);
  const secondReview = await db('commission_reviews').where('commission_id', second.id).first('id');
  const job = startOwnerReviewDigest(db, { ...h().config, OWNER_DIGEST_EVERY_MS: 1000 }, createLogger('silent', 'test'));
  t.teardown(() => job.stop());
  await waitFor(async () => (await digests(owner)).length === 2, 'the second digest', 15_000);
  await job.stop();
  const [latest] = await digests(owner);
  t.regex(latest!.subject, /: 1 commission to review \(1 held\)$/, 'the new review only');
  const sentAudit = await db('audit_log').where({ org_id: a.org_id, action: 'commission_review.owner_digest_sent' }).orderBy('created_at');
  t.deepEqual(sentAudit[1].details.review_ids, [secondReview.id]);
  t.deepEqual(await digests(member), []);

  // Voided: the creator reads the neutral void reason (not the refund's), and the line leaves the owed card (the
  // second, still held, stays under review).
  const actor = { actorType: 'system' as const, actorId: 'test', requestId: null, ip: null };
  await decideReview(db, { orgId: a.org_id, reviewId: review.id, decision: 'void', actor });
  t.like(await db('commissions').where('id', earn.id).first('status', 'review_state'), { status: 'reversed', review_state: 'voided' });
  const after = section((await creator.browser.fetch(campaignUrl)).text, 'commissions');
  t.regex(after, /<tr data-state="voided">/);
  t.is(after.match(/<tr data-state="under_review">/g)?.length, 1, 'the second only');
  t.true(after.includes(NEUTRAL_VOID_REASON));
  t.notRegex(after, /refunded|email|self/i);
  const cardAfter = section((await creator.browser.fetch(`${h().baseUrl}/dashboard/creator`)).text, `owed-${a.org_id}`);
  t.regex(cardAfter, new RegExp(`id="under-review-${a.org_id}">\\${usd(second.commission_micros)} <span class="muted">\\(1 commission `));
  t.deepEqual((await getCreatorMoneySummary(db, a.org_id)).commissions.under_review, { count: 1, micros: second.commission_micros });
});
