// The creator portal's proof in Chromium (playwright-core; no browser is a failure, never a skip): a creator joins
// through the join page, asks for a sign-in link, reads it from the outbox (test/helpers/creator-mail.ts), signs in
// through the confirm page, and follows one purchase's commission: held with its release date (a holding-period day
// lasts 4 s here), payable once the period passes, paid with its statement after `svc payouts run`, and clawed back
// after a refund. Every page is axe-clean and fits a 390 px wide screen. Screenshots: test-output/screenshots/portal-*.
import AxeBuilder from '@axe-core/playwright';
import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { latestSignInLink } from '../helpers/creator-mail.js';
import { useHarness } from '../helpers/harness.js';
import { formatDate } from '../../lib/dates.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const h = useHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '4000' } });
let browser: Browser;
let page: Page;
let app: SeededApp;

test.before(async () => {
  await h.ready();
  app = await seedApp(h().db);
  await h().db('campaigns').where('id', app.campaign_id).update({ holding_period_days: 1 });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
});
test.after.always(async () => {
  await browser?.close();
});

const url = (p: string) => `${h().baseUrl}${p}`;
const email = `portal-${Date.now()}@example.com`;
let code = '';

/** axe finds nothing, and nothing is wider than the 390 px screen. */
async function checkPage(t: ExecutionContext, name: string): Promise<void> {
  const axe = await new AxeBuilder({ page }).analyze();
  t.deepEqual(
    axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe on ${name}`,
  );
  t.true(await page.evaluate(() => document.documentElement.scrollWidth <= 390), `${name} fits 390 px`);
  await screenshot(page, `portal-${name}`);
}

const stateOfLatest = () => page.locator('#commissions tbody tr').first().locator('.commission-state').textContent();

test.serial('a creator joins, asks for a link, reads it from the mail and signs in through the confirm page', async (t) => {
  await page.goto(url(`/dashboard/join/${app.campaign_id}`));
  await checkPage(t, '00-join');
  await page.getByLabel('Name').fill('Pat Portal');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Join campaign' }).click();
  await page.locator('#join-code').filter({ hasText: /\S/ }).waitFor();
  code = (await page.locator('#join-code').textContent())!.trim();
  t.regex(code, /^INFLU-/);

  await page.goto(url('/dashboard/creator'));
  await page.getByRole('heading', { name: 'Creator sign-in' }).waitFor();
  await checkPage(t, '01-sign-in');
  await page.getByLabel('Email you joined with').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('status').filter({ hasText: 'a sign-in link is on its way' }).waitFor();

  // Read as a creator's helper would: `svc mail` (CONTRACT.md), the same outbox the mail is sent from.
  const mailed = await runSvc(['mail', '--to', email, '--json'], cliEnv({ DATABASE_URL: h().database.url }));
  t.is(mailed.code, 0, mailed.stderr);
  const [signInMail] = (JSON.parse(mailed.stdout) as { mails: { subject: string; links: string[] }[] }).mails;
  const link = signInMail?.links.find((l) => l.includes('/creator/sign-in/confirm?token='));
  t.truthy(link, 'the link is in the mail');
  t.is(link, await latestSignInLink(h().db, email), 'svc mail shows the link the outbox holds');
  await page.goto(link!);
  await page.getByRole('heading', { name: 'Sign in to the creator portal' }).waitFor();
  await checkPage(t, '02-confirm');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My campaigns' }).waitFor();
  await checkPage(t, '03-home');
  await page.getByRole('link', { name: 'Test campaign' }).click();
  await page.getByRole('heading', { name: 'Test campaign' }).waitFor();
  t.is((await page.locator('#code').textContent())?.trim(), code);
  t.true((await page.locator('#referral-link').textContent())!.endsWith(`/${code}`));
  t.is(await page.getByRole('img', { name: /QR code of your referral link/ }).count(), 1, 'the QR code, drawn on the server');
});

test.serial(
  "a purchase's commission shows held with its release date, then payable, then paid with its statement, then clawed back",
  async (t) => {
    const sub = subscription(`portal-user-${app.app_id}`, code);
    const first = sub('initial_purchase');
    const sent = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, first);
    t.is(sent.status, 200, sent.text);
    const creatorId = (await h().db('creators').whereRaw('lower(email) = lower(?)', [email]).first('id')).id as string;
    const earned = await h().db('commissions').where({ creator_id: creatorId, kind: 'earn' }).first();
    t.is(earned.status, 'reserved');
    await page.reload();
    t.is(await stateOfLatest(), 'Held');
    t.true(
      (await page.locator('#commissions tbody tr').first().textContent())!.includes(`held until ${formatDate(earned.payable_at)}`),
      'the release date is stated',
    );
    await checkPage(t, '04-held');

    await waitFor(async () => (await h().db('commissions').where('id', earned.id).first()).status === 'payable', 'the release', 30_000);
    await page.reload();
    t.is(await stateOfLatest(), 'Payable');

    // Where the money goes: the creator connects a payout account (test mode: ready at once) from the same page.
    const campaignPage = page.url();
    await page.getByLabel(/Country of your bank account/).selectOption('US');
    await page.getByRole('button', { name: 'Connect a payout account' }).click();
    await page.waitForURL(/\/dashboard\/creator\/payout-account\?from=onboarding$/);
    await page.goto(campaignPage);
    t.regex((await page.locator('#payout-account-state').textContent())!, /^Ready: payouts are sent to your connected account\.$/);

    const run = await runSvc(['payouts', 'run', '--org', app.org_id, '--json'], cliEnv({ DATABASE_URL: h().database.url }));
    t.is(run.code, 0, run.stderr);
    await page.reload();
    t.is(await stateOfLatest(), 'Paid');
    await page.locator('#payouts').getByRole('link', { name: 'Statement' }).click();
    await page.getByRole('heading', { name: /Payout statement/ }).waitFor();
    t.is(await page.locator('#statement-lines tbody tr[data-kind="Commission"]').count(), 1);
    await checkPage(t, '05-statement');
    const csv = await page.request.get(`${page.url()}/statement.csv`);
    t.is(csv.status(), 200);
    t.regex(await csv.text(), /^\uFEFF?type,date,campaign,description,amount_usd,effect,basis\r\nCommission,/);
    await page.goBack();

    const refund = await sendWebhook(
      h().baseUrl,
      app.app_id,
      app.webhook_secret,
      sub('refund', { transaction_id: first.event.transaction_id }),
    );
    t.is(refund.status, 200, refund.text);
    await waitFor(async () => (await h().db('clawbacks').where('commission_id', earned.id).first()) !== undefined, 'the clawback', 30_000);
    await page.reload();
    t.is(await stateOfLatest(), 'Clawed back');
    await checkPage(t, '06-clawed-back');
  },
);
