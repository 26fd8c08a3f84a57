// "What am I owed, and when?" (issue 36): the portal home's figures per organization come from one read
// (db/creator-owed.ts), checked here against rows the real pipeline wrote: a purchase paid by a payout run (worker,
// test-mode provider) and then refunded (owed back), one payable, one held with its release date, a returned payout
// that counts nowhere, the minimum and the schedule. The next payout date is the schedule's own next fire (Temporal's
// describe on the dev server). Joining a second organization's campaign answers the link, QR and portal and mails the
// welcome; that organization pays on demand. A later run takes the clawback back, and the commission's reason says so.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { refreshPayoutAccount, connectPayoutAccount } from '../../actions/payout-accounts.js';
import { creatorOwedByOrg } from '../../db/creator-owed.js';
import { setPayoutSettings } from '../../db/payout-settings-writes.js';
import { nextScheduledPayout } from '../../lib/payout-schedule.js';
import { reconcilePayoutSchedule, startPayoutRun } from '../../workflow-clients/payout-runs.js';
import { payoutScheduleId } from '../../workflows/payout-run-messages.js';
import { Browser, formAction, inputValue } from '../helpers/browser.js';
import { linksOf, mailsTo } from '../helpers/creator-mail.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { seedAccount, seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const h = useHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '2000', TRUST_PROXY: 'true' } });

type Sub = ReturnType<typeof subscription>;

async function purchase(app: SeededApp, tag: string, until: 'payable' | 'reserved'): Promise<{ id: string; sub: Sub; tx: string }> {
  const sub = subscription(`${tag}-${randomUUID()}`, app.creator_code);
  const first = sub('initial_purchase');
  const sent = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, first);
  if (sent.status !== 200) throw new Error(sent.text);
  let row: { id: string; status: string } | undefined;
  await waitFor(
    async () => {
      row = await h().db('commissions').where({ org_id: app.org_id, kind: 'earn' }).orderBy('created_at', 'desc').first('id', 'status');
      return row !== undefined && row.status === until && !(await seen(row.id));
    },
    `a ${until} commission`,
    30_000,
  );
  used.add(row!.id);
  return { id: row!.id, sub, tx: first.event.transaction_id as string };
}
const used = new Set<string>();
const seen = async (id: string) => used.has(id);

const runAndWait = async (app: SeededApp, runId: string) => {
  await startPayoutRun({ client: h().temporal, taskQueue: h().taskQueue }, runId, { orgId: app.org_id, createdBy: 'test' });
  let payout: { id: string; transfer_status: string; net_micros: string } | undefined;
  await waitFor(
    async () => {
      payout = await h().db('payouts').where({ run_id: runId, creator_id: app.creator_id }).first('id', 'transfer_status', 'net_micros');
      return payout?.transfer_status === 'transferred' || payout?.transfer_status === 'settled';
    },
    `run ${runId} sent`,
    30_000,
  );
  return { id: payout!.id, net: Number(payout!.net_micros) };
};

test('the portal home: held with its release, payable, next payout, minimum, paid to date, owed back; per organization', async (t) => {
  const { db } = h();
  const a = await seedApp(db);
  const email = (await db('creators').where('id', a.creator_id).first('email')).email as string;
  const connect = { db, config: h().config };
  await connectPayoutAccount(connect, a.creator_id, 'US', { returnUrl: `${h().baseUrl}/r`, refreshUrl: `${h().baseUrl}/f` });
  t.like(await refreshPayoutAccount(connect, a.creator_id), { ready: true });

  // 1: paid by a run, then refunded after the release: a clawback nobody has taken yet.
  await db('campaigns').where('id', a.campaign_id).update({ holding_period_days: 1 });
  const first = await purchase(a, 'owed-paid', 'payable');
  const paid = await runAndWait(a, `owed-1-${randomUUID()}`);
  const refund = await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, first.sub('refund', { transaction_id: first.tx }));
  t.is(refund.status, 200, refund.text);
  await waitFor(async () => (await db('clawbacks').where('commission_id', first.id).first()) !== undefined, 'the clawback', 30_000);
  const firstRow = await db('commissions').where('id', first.id).first('commission_micros');
  // 2: payable. 3: held for a long period (365 days of 2 s).
  const second = await purchase(a, 'owed-payable', 'payable');
  await db('campaigns').where('id', a.campaign_id).update({ holding_period_days: 365 });
  const third = await purchase(a, 'owed-held', 'reserved');
  const [secondRow, thirdRow] = await Promise.all([
    db('commissions').where('id', second.id).first('commission_micros'),
    db('commissions').where('id', third.id).first('commission_micros', 'payable_at'),
  ]);
  // A returned payout paid nothing: it counts nowhere (its lines went back to payable).
  const returnedRun = `owed-returned-${randomUUID()}`;
  await db('payout_runs').insert({ id: returnedRun, org_id: a.org_id, created_by: 'test' });
  await db('payouts').insert({
    run_id: returnedRun,
    org_id: a.org_id,
    creator_id: a.creator_id,
    commission_count: 0,
    gross_micros: 7_000_000,
    fees_micros: 0,
    clawbacks_netted_micros: 0,
    net_micros: 7_000_000,
    transfer_status: 'returned',
    failure: 'test: refused',
    returned_at: db.fn.now(),
  });
  await setPayoutSettings(db, a.org_id, { minimumPayoutMicros: 5_000_000, periodHours: 24 }, 'test');

  // A second organization: the same person joins its campaign through the public join.
  const b = await seedApp(db);
  const joined = await request(h().baseUrl, 'POST', `/api/public/campaigns/${b.campaign_id}/join`, {
    body: { name: 'Owed Creator', email },
    headers: { 'x-forwarded-for': '198.51.100.36' },
  });
  t.is(joined.status, 201, joined.text);
  t.is(joined.body.creator_id, a.creator_id, 'one creator per address');

  const owed = await creatorOwedByOrg(db, a.creator_id);
  t.is(owed.length, 2, 'one card per organization the creator works for');
  const orgA = owed.find((o) => o.org_id === a.org_id);
  const orgB = owed.find((o) => o.org_id === b.org_id);
  t.like(orgA, {
    org_id: a.org_id,
    held_micros: Number(thirdRow.commission_micros),
    held_count: 1,
    waiting_micros: 0,
    payable_micros: Number(secondRow.commission_micros),
    sending_micros: 0,
    paid_micros: paid.net,
    owed_back_micros: Number(firstRow.commission_micros),
    minimum_payout_micros: 5_000_000,
    period_hours: 24,
  });
  t.deepEqual(orgA!.next_release_at, thirdRow.payable_at);
  t.like(orgB, { org_id: b.org_id, held_micros: 0, payable_micros: 0, paid_micros: 0, owed_back_micros: 0, period_hours: null });

  // The date shown is the schedule's own next fire: Temporal anchors `every` intervals at the epoch.
  const deps = { db, client: h().temporal, taskQueue: h().taskQueue, catchupHours: 24 };
  await reconcilePayoutSchedule(deps, a.org_id);
  const schedule = h().temporal.schedule.getHandle(payoutScheduleId(a.org_id));
  t.teardown(() => schedule.delete().catch(() => undefined));
  const described = await schedule.describe();
  const fires = described.info.nextActionTimes;
  t.deepEqual(fires[0], nextScheduledPayout(24, new Date()), 'the next fire as Temporal computes it');
  t.deepEqual(fires[1], nextScheduledPayout(24, fires[0]!), 'and the one after');

  const creator = await signInCreator(h().baseUrl, db, email, '198.51.100.37');
  const home = await creator.browser.fetch(`${h().baseUrl}/dashboard/creator`);
  t.is(home.status, 200);
  const cardA = home.text.slice(
    home.text.indexOf(`id="owed-${a.org_id}"`),
    home.text.indexOf('</table>', home.text.indexOf(`id="owed-${a.org_id}"`)),
  );
  const usd = (m: number) => `$${(m / 1e6).toFixed(2)} USD`;
  t.regex(
    cardA,
    new RegExp(
      `id="held-${a.org_id}">\\${usd(Number(thirdRow.commission_micros))}.*the ` +
        `next is released <time datetime="${new Date(thirdRow.payable_at).toISOString()}"`,
    ),
  );
  t.regex(
    cardA,
    new RegExp(`id="payable-${a.org_id}">\\${usd(Number(secondRow.commission_micros))}<`),
    'payable, and the account is ready: no prompt',
  );
  t.regex(
    cardA,
    new RegExp(
      `id="next-${a.org_id}"><time datetime="${fires[0]!.toISOString()}"[^>]*>[^<]*</time> <span class="muted">\\(scheduled every day\\)`,
    ),
  );
  t.regex(cardA, new RegExp(`id="minimum-${a.org_id}">\\$5\\.00 USD`));
  t.regex(cardA, new RegExp(`id="paid-${a.org_id}">\\${usd(paid.net)}<`));
  t.regex(cardA, new RegExp(`id="owed-back-${a.org_id}">\\${usd(Number(firstRow.commission_micros))}`));
  t.regex(home.text, new RegExp(`id="next-${b.org_id}">paid on demand by the developer<`));
  t.regex(home.text, new RegExp(`id="minimum-${b.org_id}">none<`));
  t.regex(home.text, /Payout account:<\/strong> Ready: payouts are sent to your connected account\./);

  // Before the next run the refunded commission's clawback is still to be taken; the run takes it (netted from the
  // payable one), and the same row now reads as taken, the card's owed back is zero, paid to date grew by the net.
  const campaign = `${h().baseUrl}/dashboard/creator/campaigns/${a.campaign_id}`;
  const before = await creator.browser.fetch(campaign);
  t.regex(before.text, /refunded after the commission was released; the amount is taken from your next payout\./);
  // (Its net is what the payable one earns less the clawback, under the $5 minimum: the minimum goes first.)
  await setPayoutSettings(db, a.org_id, { minimumPayoutMicros: 0, periodHours: 24 }, 'test');
  const next = await runAndWait(a, `owed-2-${randomUUID()}`);
  t.is(next.net, Number(secondRow.commission_micros) - Number(firstRow.commission_micros));
  const after = await creator.browser.fetch(campaign);
  t.regex(after.text, /refunded after the commission was released; the amount is already taken back from a payout\./);
  t.notRegex(after.text, /taken from your next payout/);
  const [again] = (await creatorOwedByOrg(db, a.creator_id)).filter((o) => o.org_id === a.org_id);
  t.like(again, { owed_back_micros: 0, payable_micros: 0, paid_micros: paid.net + next.net });
});

test('joining answers the contract, the referral link, its QR and the portal, and mails the welcome once', async (t) => {
  const { db } = h();
  const app = await seedApp(db);
  const email = `joiner-${randomUUID()}@example.com`;
  const code = `JO${randomUUID().slice(0, 6).toUpperCase()}`;
  const join = () =>
    request(h().baseUrl, 'POST', `/api/public/campaigns/${app.campaign_id}/join`, {
      body: { name: 'Jo Joiner', email, code },
      headers: { 'x-forwarded-for': '198.51.100.38' },
    });
  const first = await join();
  t.is(first.status, 201, first.text);
  const slug = (await db('apps').where('id', app.app_id).first('slug')).slug as string;
  const link = `${h().config.BASE_URL}/${slug}/${first.body.code}`;
  t.like(first.body, { campaign_id: app.campaign_id, referral_link: link, portal_url: `${h().config.DASHBOARD_URL}/creator` });
  t.truthy(first.body.creator_id);
  t.true(first.body.referral_link_qr.size >= 21 && /^(M\d+ \d+h1v1h-1z)+$/.test(first.body.referral_link_qr.path), 'a QR module path');
  const mails = await mailsTo(db, email);
  t.is(mails.length, 1);
  t.is(mails[0]!.template, 'creator_welcome');
  const links = linksOf(mails[0]!);
  t.true(links.includes(link), 'the mail carries the link');
  t.true(mails[0]!.body_text.includes(`Your code: ${first.body.code}`));
  const signIn = links.find((l) => l.includes('/creator/sign-in/confirm?token='));
  t.truthy(signIn, 'and a first sign-in link');
  // The welcome's link signs in once, through the portal's own confirm page.
  const browser = new Browser();
  const confirm = await browser.fetch(signIn!);
  t.is(confirm.status, 200);
  const done = await browser.fetch(formAction(confirm.text, signIn!), {
    form: { csrf: inputValue(confirm.text, 'csrf') ?? '', token: inputValue(confirm.text, 'token') ?? '' },
  });
  t.is(done.status, 303);
  t.truthy(browser.cookies.get('svc_creator'));

  // Joining again answers the same membership and mails nothing more.
  const repeat = await join();
  t.is(repeat.status, 200, repeat.text);
  t.is(repeat.body.code, code);
  t.is((await mailsTo(db, email)).length, 1);
});

test("the developer's creators page shows each creator's payout account in words: none, test mode, not ready with why", async (t) => {
  const { db } = h();
  const seed = await seedAccount(db, h().baseUrl);
  const creator = await db('creator_codes').where({ campaign_id: seed.campaign_id, code: seed.creator_code }).first('creator_id');
  const dash = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const cell = async () => {
    const page = await dash.browser.fetch(`${h().baseUrl}/dashboard/creators`);
    t.is(page.status, 200);
    return /<span class="payout-account" data-payout-account="([a-z_]+)">([^<]*)<\/span>/.exec(page.text)?.slice(1);
  };
  t.deepEqual(await cell(), ['none', 'none: no payout account connected, so payouts wait']);
  const connect = { db, config: h().config };
  await connectPayoutAccount(connect, creator.creator_id, 'US', { returnUrl: `${h().baseUrl}/r`, refreshUrl: `${h().baseUrl}/f` });
  await refreshPayoutAccount(connect, creator.creator_id);
  t.deepEqual(await cell(), ['test_mode', 'test mode: ready, no real money moves']);
  await db('payout_accounts')
    .where('creator_id', creator.creator_id)
    .update({ payouts_enabled: false, requirements_due: JSON.stringify(['individual.verification.document']) });
  t.deepEqual(await cell(), [
    'not_ready',
    'not ready: payouts to the bank account are not enabled yet; information is still due (individual.verification.document)',
  ]);
});
