// A developer's first hour in a real browser (Chromium), with nothing but the service as `svc dev` runs it
// (ApiDeps.devMode): sign up, open the verification mail on the dev mailbox page and confirm with its one button,
// sign in, create an app, then follow the setup page's steps in place: create and activate a campaign, copy the join
// link before any creator joined and join through it, send a test purchase and watch its progress, and see the
// purchase arrive on the live events page. No database client anywhere. Screenshots: test-output/screenshots/first-hour-*.
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { pageProblems } from '../helpers/page-checks.js';
import { useHarness } from '../helpers/harness.js';

// MIN_ESCROW_USD=0: the wallet's top-up has its own browser test (dashboard-browser.test.ts); here activation is free.
const h = useHarness(test, { devMode: true, caches: true, env: { TRUST_PROXY: 'true', PAYMENT_PROVIDER: 'test', MIN_ESCROW_USD: '0' } });
let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `first+${Date.now()}@example.com`;
const password = 'a long enough password';
let appId = '';

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
});
test.after.always(async () => {
  await browser?.close();
});

const url = (path: string) => `${h().baseUrl}${path}`;
const step = (name: string) => page.locator(`li[data-step="${name}"]`);

test.serial('sign up, verify through the dev mailbox page, signed in by the verification', async (t) => {
  await page.goto(url('/dashboard/signup'));
  await page.getByLabel('Organization name').fill('First Hour Org');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();

  await page.goto(url(`/dashboard/dev/mailbox?to=${encodeURIComponent(email)}`));
  const mail = page.locator(`article.mail[data-to="${email}"]`);
  t.is(await mail.count(), 1);
  t.is(await mail.getByRole('heading').textContent(), 'Verify your email');
  await screenshot(page, 'first-hour-01-mailbox');
  t.deepEqual(await pageProblems(page, 'dev mailbox'), []);
  await mail.getByRole('link', { name: /verify-email\?token=/ }).click();
  await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
  await screenshot(page, 'first-hour-02-confirm');
  t.deepEqual(await pageProblems(page, 'verify confirm page'), []);
  // The browser that signed up is signed in by the verification (verify-email-sign-in.test.ts: the window and the rest).
  await page.getByRole('button', { name: 'Verify my email' }).click();
  await page.getByRole('heading', { name: 'Apps' }).waitFor();
  t.regex((await page.locator('#brand').textContent()) ?? '', /\(owner\)/);
});

test.serial('create an app and follow the steps to a test purchase, then watch it arrive on live events', async (t) => {
  await page.getByLabel('App name').fill('First Hour App');
  await page.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
  // The webhook secret, shown once, with a copy button.
  await page.locator('button[data-copy="webhook_secret"]').click();
  t.is(await page.evaluate('navigator.clipboard.readText()'), await page.locator('#webhook_secret').inputValue());
  t.regex(await page.locator('#webhook_secret').inputValue(), /^rc_webhook_/);
  await page.getByRole('link', { name: 'I stored it, continue' }).click();
  await page.getByRole('link', { name: 'First Hour App' }).click();
  await page.getByRole('heading', { name: 'Set up First Hour App' }).waitFor();
  appId = /\/dashboard\/apps\/([^/?]+)/.exec(page.url())![1]!;
  t.is(await step('app_created').getAttribute('data-state'), 'done');
  t.is(await step('campaign_active').locator('h3').textContent(), 'Create and activate a campaign Next');
  // Plain words first; the agent's REST path and tool only behind the toggle.
  const agent = step('campaign_active').locator('details.agent');
  t.false(await agent.evaluate((d) => (d as HTMLDetailsElement).open));
  t.regex((await agent.textContent()) ?? '', /svc_create_campaign/);
  t.false(
    await step('campaign_active')
      .getByText('/api/agent/')
      .first()
      .isVisible()
      .catch(() => false),
    'no agent path on view',
  );
  // The SDK code carries this app's key.
  const sdkKey = (await page.locator('#sdk-key').textContent())!;
  t.regex(
    (await step('sdk_initialized').locator('details[data-sdk="react-native"]').textContent()) ?? '',
    new RegExp(`apiKey: '${sdkKey}'|"${sdkKey}"`),
  );
  // The webhook URL has a working copy button.
  await step('subprovider_webhook_wired').getByRole('button', { name: 'Copy' }).click();
  t.is(await page.evaluate('navigator.clipboard.readText()'), `${h().config.BASE_URL}/api/webhooks/subprovider/${appId}`);
  await screenshot(page, 'first-hour-03-setup-fresh');

  await step('campaign_active').getByLabel('Name', { exact: true }).fill('Launch');
  await step('campaign_active').getByLabel('Commission (%)').fill('30');
  await step('campaign_active').getByRole('button', { name: 'Create campaign (draft)' }).click();
  await step('campaign_active').getByRole('button', { name: 'Activate' }).click();
  await page.locator('li[data-step="campaign_active"][data-state="done"]').waitFor();

  // Before any creator joined: the join link, with a copy button, in the last step.
  const joinLink = (await page.locator('#join-link').textContent())!;
  t.regex(joinLink, /\/dashboard\/join\/cmp_/);
  await step('attributed_conversion').getByRole('button', { name: 'Copy' }).click();
  t.is(await page.evaluate('navigator.clipboard.readText()'), joinLink);
  t.is(await page.getByRole('button', { name: 'Send a test purchase' }).count(), 0, 'no test purchase before a creator joined');
  await screenshot(page, 'first-hour-04-join-link');
  // The creator is someone else: their own browser (no developer session).
  const creatorContext = await browser.newContext();
  const creatorPage = await creatorContext.newPage();
  await creatorPage.goto(joinLink);
  await creatorPage.getByLabel('Name').fill('Casey Creator');
  await creatorPage.getByLabel('Email').fill(`casey+${Date.now()}@example.com`);
  await creatorPage.getByRole('button', { name: 'Join campaign' }).click();
  await creatorPage.locator('#join-done, #join-error:not([hidden])').first().waitFor();
  await screenshot(creatorPage, 'first-hour-04b-joined');
  t.true(await creatorPage.locator('#join-done').isVisible(), (await creatorPage.locator('#join-error').textContent()) ?? '');
  await creatorContext.close();

  await page.reload();
  await page.getByRole('button', { name: 'Send a test purchase' }).click();
  const progress = page.locator('#test-purchase-progress');
  await progress.locator('li.done', { hasText: 'Credited to' }).waitFor({ timeout: 30_000 });
  t.regex((await progress.textContent()) ?? '', /Purchase sent by test user svc_test_.* with code .*Workflow test-integration\//s);
  await screenshot(page, 'first-hour-05-test-purchase');
  // The steps stay truthful: the test purchase proves the pipeline but completes no step.
  await page.reload();
  t.is(await step('attributed_conversion').getAttribute('data-state'), 'open');
  t.regex((await page.locator('#test-purchase-last').textContent()) ?? '', /credited to the creator/);

  await page.locator('#test-purchase-last').getByRole('link', { name: 'See it on live events' }).click();
  const row = page.locator('#live-events tr[data-kind="purchase"]').first();
  await row.locator('.attribution', { hasText: 'attributed' }).waitFor();
  t.regex((await row.textContent()) ?? '', /svc_test_/);
  await screenshot(page, 'first-hour-06-live-events');
});
