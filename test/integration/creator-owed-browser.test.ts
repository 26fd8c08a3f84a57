// Issue 36's creator pages in Chromium (playwright-core): the join page's success screen (link and code with copy
// buttons, the QR code, the way to the portal), the portal home's card of what an organization owes and when, and the
// connect form answered with an error beside the select. Each page passes pageProblems (axe, 390 px) and is saved at
// 1280 and 390 px under test-output/screenshots/owed-*.
import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { setPayoutSettings } from '../../db/payout-settings-writes.js';
import { launchChromium } from '../helpers/chromium.js';
import { latestSignInLink, linksOf, mailsTo } from '../helpers/creator-mail.js';
import { useHarness } from '../helpers/harness.js';
import { makePayableCommission } from '../helpers/payable.js';
import { problemsAndScreenshots } from '../helpers/page-checks.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';

const h = useHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '2000', TRUST_PROXY: 'true' } });
let browser: Browser;
let page: Page;
let app: SeededApp;

test.before(async () => {
  await h.ready();
  app = await seedApp(h().db);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
});
test.after.always(async () => {
  await browser?.close();
});

const url = (p: string) => `${h().baseUrl}${p}`;

/** The page passes the checks, and is saved at 1280 and at 390 px. */
async function look(t: ExecutionContext, name: string): Promise<void> {
  t.deepEqual(await problemsAndScreenshots(page, `owed-${name}`), [], name);
}

test.serial('the join success screen: link and code with copy buttons, the QR code, the portal; the welcome mail', async (t) => {
  const email = `joiner-${Date.now()}@example.com`;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h().baseUrl });
  await page.goto(url(`/dashboard/join/${app.campaign_id}`));
  await page.getByLabel('Name').fill('Jun Joiner');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Join campaign' }).click();
  await page.locator('#join-done').waitFor();
  const code = (await page.locator('#join-code').textContent())!.trim();
  t.regex(code, /^INFLU-/);
  const link = (await page.locator('#join-link').textContent())!.trim();
  t.true(link.endsWith(`/${code}`));
  t.is(await page.locator('#join-link').getAttribute('href'), link);
  t.is(await page.getByRole('img', { name: 'QR code of your referral link' }).count(), 1);
  t.is(await page.getByRole('link', { name: 'Open your creator portal' }).getAttribute('href'), `${h().config.DASHBOARD_URL}/creator`);
  await page.locator('#join-done button[data-copy="join-link"]').click();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), link, 'the copy button copies the link');
  await page.locator('#join-done button[data-copy="join-code"]').click();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), code);
  await look(t, 'join-success');
  const [welcome] = await mailsTo(h().db, email);
  t.true(linksOf(welcome!).includes(link));
});

test.serial("the portal home's card and the connect form answered with an error beside the select", async (t) => {
  await makePayableCommission(h().db, h().baseUrl, app, 'owed-browser');
  await setPayoutSettings(h().db, app.org_id, { minimumPayoutMicros: 10_000_000, periodHours: 168 }, 'test');
  const email = (await h().db('creators').where('id', app.creator_id).first('email')).email as string;
  await page.goto(url('/dashboard/creator/sign-in'));
  await page.getByLabel('Email you joined with').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('status').filter({ hasText: 'a sign-in link is on its way' }).waitFor();
  await page.goto((await latestSignInLink(h().db, email))!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My campaigns' }).waitFor();
  const card = page.locator(`#owed-${app.org_id}`);
  t.regex((await card.locator(`#payable-${app.org_id}`).textContent())!, /^\$\d+\.\d\d USD connect a payout account to be paid$/);
  t.regex((await card.locator(`#next-${app.org_id}`).textContent())!, /\(scheduled every 7 days\)$/);
  t.is((await card.locator(`#minimum-${app.org_id}`).textContent())!.trim(), '$10.00 USD (a smaller net waits for the next payout)');
  await look(t, 'home-card');

  await card.getByRole('link', { name: 'connect a payout account to be paid' }).click();
  await page.getByRole('heading', { name: 'Payout account' }).waitFor();
  t.regex((await page.locator('#payout-provider').textContent())!, /^Test mode: no real money moves/, 'the label before deciding');
  // A country off the list (an old or altered form): the answer is the form again, the message beside the select.
  await page.locator('#payout-country option[value="DE"]').evaluate((o) => ((o as HTMLOptionElement).value = 'ZZ'));
  await page.getByLabel('Country of your bank account').selectOption('ZZ');
  await page.getByRole('button', { name: 'Connect a payout account' }).click();
  await page.locator('#payout-country-error').waitFor();
  t.is(
    (await page.locator('#payout-country-error').textContent())!.trim(),
    "Choose the country of your bank account from the list: payouts cannot be sent to 'ZZ'.",
  );
  t.is(await page.getByLabel('Country of your bank account').getAttribute('aria-describedby'), 'payout-country-error');
  t.is(await h().db('payout_accounts').where('creator_id', app.creator_id).first(), undefined);
  await look(t, 'connect-error');

  await page.getByLabel('Country of your bank account').selectOption('DE');
  await page.getByRole('button', { name: 'Connect a payout account' }).click();
  await page.waitForURL(/\/payout-account\?from=onboarding$/);
  t.regex((await page.locator('#onboarding-result').textContent())!, /your payout account is ready/);
  await look(t, 'connect-returned');
  await page.goto(url('/dashboard/creator'));
  t.regex((await page.locator(`#payable-${app.org_id}`).textContent())!, /^\$\d+\.\d\d USD$/, 'no prompt once ready');
});
