// The creators' earnings digest (docs/creator-portal.md "Digest"): a release to payable and a payout each leave a
// digest item with the change itself; composing queues one outbox mail per creator with every unsent item, links to
// the portal and an unsubscribe link, marks the items, and sends nothing more within the period; the unsubscribe
// link's GET changes nothing, its POST stops the mails (items are settled unsent), and an altered link is refused.
// Serial: the job of the last test composes every creator's due digest, the other tests' creators too.
import test from 'ava';
import { composeDueDigests } from '../../db/creator-digests.js';
import { startCreatorDigest } from '../../jobs/creator-digest.js';
import { createLogger } from '../../runtime/logger.js';
import { waitFor } from '../helpers/svc-processes.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { recordPayoutTransfer, returnPayout } from '../../actions/payout-transfers.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { unsubscribeUrl } from '../../lib/creator-unsubscribe.js';
import { Browser, inputValue } from '../helpers/browser.js';
import { linksOf, mailsTo } from '../helpers/creator-mail.js';
import { useHarness } from '../helpers/harness.js';
import { makePayableCommission } from '../helpers/payable.js';
import { seedApp } from '../helpers/seed.js';

const h = useHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '300' } });
const DAY = 86_400_000;
const options = (everyMs = DAY) => ({
  everyMs,
  dashboardUrl: h().config.DASHBOARD_URL,
  unsubscribeUrl: (id: string) => unsubscribeUrl(h().config.SVC_MASTER_KEY!, h().config.DASHBOARD_URL, id),
});
const digestsTo = async (email: string) => (await mailsTo(h().db, email)).filter((m) => m.template === 'creator_digest');

test.serial('a release and a payout each leave an item; one mail carries both, once per period, linking to the portal', async (t) => {
  const app = await seedApp(h().db);
  const email = (await h().db('creators').where('id', app.creator_id).first('email')).email as string;
  const commission = await makePayableCommission(h().db, h().baseUrl, app, `digest-${app.app_id}`);
  const items = await h().db('creator_digest_items').where('creator_id', app.creator_id);
  t.like(
    items,
    [{ kind: 'commission_payable', commission_id: commission.id, org_id: app.org_id, digested_at: null }],
    'written with the release',
  );
  t.is(Number(items[0].amount_micros), commission.commission_micros);
  await connectTestAccount(h().db, app.creator_id);
  const run = await runPayoutRun({ db: h().db }, { orgId: app.org_id, runId: `digest-${app.org_id}` });
  const payoutId = run.payouts[0]!.payout_id!;
  const sent = () => h().db('creator_digest_items').where({ creator_id: app.creator_id, kind: 'payout_sent', payout_id: payoutId });
  t.deepEqual(await sent(), [], 'nothing is told while the money has not moved');
  t.true(await recordPayoutTransfer({ db: h().db }, { payoutId, provider: 'test', transferId: `tr_test_${payoutId}` }));
  t.is((await sent()).length, 1, 'written with the transfer');
  await runPayoutRun({ db: h().db }, { orgId: app.org_id, runId: `digest-${app.org_id}` });
  t.false(await recordPayoutTransfer({ db: h().db }, { payoutId, provider: 'test', transferId: `tr_test_${payoutId}` }));
  t.is((await h().db('creator_digest_items').where('creator_id', app.creator_id)).length, 2, 'a repeated run adds nothing');

  await composeDueDigests(h().db, options());
  const [mail, ...more] = await digestsTo(email);
  t.is(more.length, 0);
  t.regex(mail!.subject, /1 commission payable, 1 payout update/);
  const links = linksOf(mail!);
  t.true(links.includes(`${h().config.DASHBOARD_URL}/creator/campaigns/${app.campaign_id}`), mail!.body_text);
  t.true(links.includes(`${h().config.DASHBOARD_URL}/creator/payouts/${payoutId}`));
  t.true(links.includes(`${h().config.DASHBOARD_URL}/creator`));
  t.truthy(links.find((l) => l.includes('/creator/unsubscribe?')));
  t.false(mail!.body_text.includes('digest-'), 'no end user id in the mail');
  t.deepEqual(await h().db('creator_digest_items').where('creator_id', app.creator_id).whereNull('digested_at'), [], 'items marked');

  // Another change within the period waits for the next digest.
  await h()
    .db('creator_digest_items')
    .insert({ creator_id: app.creator_id, org_id: app.org_id, kind: 'payout_failed', payout_id: payoutId, amount_micros: 1 });
  await composeDueDigests(h().db, options());
  t.is((await digestsTo(email)).length, 1, 'at most one digest per period');
  await h()
    .db('creators')
    .where('id', app.creator_id)
    .update({ last_digest_at: h().db.raw("now() - interval '2 days'") });
  await composeDueDigests(h().db, options());
  const latest = await digestsTo(email);
  t.is(latest.length, 2);
  t.regex(latest[0]!.body_text, /was returned on .*: nothing was paid/);
});

test.serial(
  'a payout returned before any transfer is told only as returned; one reversed after its transfer: sent, then reversed',
  async (t) => {
    const { db } = h();
    const kinds = async (creatorId: string) =>
      (await db('creator_digest_items').where('creator_id', creatorId).whereNotNull('payout_id').orderBy('created_at')).map((i) => i.kind);

    // Returned before any transfer (as phase 2 refuses it): the creator never hears "sent".
    const early = await seedApp(db);
    const earlyEmail = (await db('creators').where('id', early.creator_id).first('email')).email as string;
    await makePayableCommission(db, h().baseUrl, early, `digest-returned-${early.app_id}`);
    await connectTestAccount(db, early.creator_id);
    const returned = (await runPayoutRun({ db }, { orgId: early.org_id, runId: `returned-${early.org_id}` })).payouts[0]!;
    t.true(await returnPayout({ db }, { payoutId: returned.payout_id!, reason: 'Stripe refused the transfer: account closed' }));
    t.deepEqual(await kinds(early.creator_id), ['payout_failed']);
    await composeDueDigests(db, options());
    const [told] = await digestsTo(earlyEmail);
    t.regex(told!.body_text, new RegExp(`A payout of \\$[0-9.]+ USD from .* was returned on [0-9-]+: nothing was paid`));
    t.false(/sent to your payout account/.test(told!.body_text), 'never told it was sent');

    // Sent (the transfer recorded), mailed, then reversed by Stripe: a distinct item in the next digest, not a silent change.
    const late = await seedApp(db);
    const lateEmail = (await db('creators').where('id', late.creator_id).first('email')).email as string;
    await makePayableCommission(db, h().baseUrl, late, `digest-reversed-${late.app_id}`);
    await connectTestAccount(db, late.creator_id);
    const sent = (await runPayoutRun({ db }, { orgId: late.org_id, runId: `reversed-${late.org_id}` })).payouts[0]!;
    await recordPayoutTransfer({ db }, { payoutId: sent.payout_id!, provider: 'test', transferId: `tr_test_${sent.payout_id}` });
    await composeDueDigests(db, options());
    t.regex((await digestsTo(lateEmail))[0]!.body_text, /sent to your payout account/);
    t.true(await returnPayout({ db }, { payoutId: sent.payout_id!, reason: 'the transfer was reversed' }));
    t.deepEqual(await kinds(late.creator_id), ['payout_sent', 'payout_reversed']);
    await db('creators')
      .where('id', late.creator_id)
      .update({ last_digest_at: db.raw("now() - interval '2 days'") });
    await composeDueDigests(db, options());
    const mails = await digestsTo(lateEmail);
    t.is(mails.length, 2);
    t.regex(mails[0]!.body_text, /sent earlier was reversed on [0-9-]+: the money was taken back, so nothing was paid/);
    t.true(linksOf(mails[0]!).includes(`${h().config.DASHBOARD_URL}/creator/payouts/${sent.payout_id}`));
  },
);

test.serial('the unsubscribe link: GET changes nothing, POST stops the digests, an altered link is refused', async (t) => {
  const app = await seedApp(h().db);
  const email = (await h().db('creators').where('id', app.creator_id).first('email')).email as string;
  const link = unsubscribeUrl(h().config.SVC_MASTER_KEY!, h().config.DASHBOARD_URL, app.creator_id);
  const browser = new Browser();
  const page = await browser.fetch(link);
  t.is(page.status, 200);
  t.is((await h().db('creators').where('id', app.creator_id).first()).digest_unsubscribed_at, null, 'opening the link changes nothing');
  const other = await seedApp(h().db);
  const altered = link.replace(app.creator_id, other.creator_id);
  t.is((await browser.fetch(altered)).status, 400);
  t.is(
    (
      await browser.fetch(`${h().baseUrl}/dashboard/creator/unsubscribe`, {
        form: { c: other.creator_id, sig: inputValue(page.text, 'sig')! },
      })
    ).status,
    400,
    'a signature is good for its own creator only',
  );
  const done = await browser.fetch(`${h().baseUrl}/dashboard/creator/unsubscribe`, {
    form: { c: inputValue(page.text, 'c')!, sig: inputValue(page.text, 'sig')! },
  });
  t.is(done.status, 200);
  t.truthy((await h().db('creators').where('id', app.creator_id).first()).digest_unsubscribed_at);
  t.is((await h().db('creators').where('id', other.creator_id).first()).digest_unsubscribed_at, null);

  await makePayableCommission(h().db, h().baseUrl, app, `unsub-${app.app_id}`);
  await composeDueDigests(h().db, options());
  t.deepEqual(await digestsTo(email), [], 'no mail after unsubscribing');
  t.deepEqual(
    await h().db('creator_digest_items').where('creator_id', app.creator_id).whereNull('digested_at'),
    [],
    'items settled unsent',
  );
});

test.serial("the worker's digest job composes due digests on its own", async (t) => {
  const app = await seedApp(h().db);
  const email = (await h().db('creators').where('id', app.creator_id).first('email')).email as string;
  await makePayableCommission(h().db, h().baseUrl, app, `job-${app.app_id}`);
  const job = startCreatorDigest(h().db, { ...h().config, CREATOR_DIGEST_EVERY_MS: 1000 }, createLogger('silent', 'test'));
  t.teardown(() => job.stop());
  await waitFor(async () => (await digestsTo(email)).length === 1, "the job's digest", 20_000);
  await job.stop();
  t.deepEqual(await h().db('creator_digest_items').where('creator_id', app.creator_id).whereNull('digested_at'), []);
});
