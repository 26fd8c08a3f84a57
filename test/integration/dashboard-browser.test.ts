// The dashboard in a real browser (playwright-core driving Chromium): a developer signs up, verifies the email from
// the outbox and signs in; creates an app and walks its setup page's checklist to "live" while the test plays the
// app, the creator and the subscription provider over HTTP (top-up in test mode through the signed link on the way,
// since activation needs the minimum escrow); creates an agent key with chosen scopes and revokes it (the key then
// gets 401); and a cross-site page's form posts are refused. Screenshots of each page: test-output/screenshots/.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { request } from '../helpers/http.js';
import { useHarness } from '../helpers/harness.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test, { env: { TRUST_PROXY: 'true', PAYMENT_PROVIDER: 'test' } });
let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `dev+${Date.now()}@example.com`;
const password = 'a long enough password';
let appId = '';
let webhookSecret = '';

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
});
test.after.always(async () => {
  await browser?.close();
});

const url = (path: string) => `${h().baseUrl}${path}`;
const stepState = (step: string) => page.locator(`li[data-step="${step}"]`).getAttribute('data-state');

test.serial('sign-up, email verification from the outbox, sign-in', async (t) => {
  await page.goto(url('/dashboard/signup'));
  await screenshot(page, '01-signup');
  await page.getByLabel('Organization name').fill('Browser Test Org');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await screenshot(page, '02-check-email');

  const mail = await h().db('email_outbox').where({ to_address: email, template: 'account_verify_email' }).first();
  const link = /(http\S+)/.exec(mail.body_text as string)![1]!;
  // Opened a day later in another browser (no sign-up cookie, the account two hours old): the link verifies and the
  // sign-in form asks for the password (verify-email-sign-in.test.ts covers the window and the same browser).
  await h()
    .db('users')
    .where('email', email)
    .update({ created_at: new Date(Date.now() - 24 * 3600_000) });
  await page.context().clearCookies({ name: 'svc_signup' });
  await page.goto(link);
  await page.getByRole('button', { name: 'Verify my email' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.regex((await page.getByRole('status').textContent()) ?? '', /is verified\. Sign in with your password/);
  t.is(await page.getByLabel('Email').inputValue(), email);
  await screenshot(page, '03-verified');
  await page.getByLabel('Password').fill(password);
  await screenshot(page, '04-sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Apps' }).waitFor();
  t.regex((await page.locator('#brand').textContent()) ?? '', new RegExp(`${email.replace(/[+.]/g, '\\$&')} \\(owner\\)`));
  await screenshot(page, '05-apps-empty');
});

test.serial('the setup page of a fresh app walks the checklist to live while the test plays the app over HTTP', async (t) => {
  await page.getByLabel('App name').fill('Browser App');
  await page.getByLabel('App Store URL (optional)').fill('https://apps.apple.com/app/id123456789');
  await page.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
  webhookSecret = await page.locator('#webhook_secret').inputValue();
  t.regex(webhookSecret, /^rc_webhook_/);
  t.regex(await page.locator('#purchase_api_key').inputValue(), /^it_srv_/);
  await page.getByRole('link', { name: 'I stored it, continue' }).click();
  await page.getByRole('link', { name: 'Browser App' }).click();
  await page.getByRole('heading', { name: 'Set up Browser App' }).waitFor();
  appId = /\/dashboard\/apps\/([^/?]+)/.exec(page.url())![1]!;
  const sdkKey = (await page.locator('#sdk-key').textContent())!;
  t.is(await stepState('app_created'), 'done');
  for (const step of ['campaign_active', 'sdk_initialized', 'sdk_event_received', 'purchase_webhook_seen', 'attributed_conversion'])
    t.is(await stepState(step), 'open', step);
  t.regex((await page.locator('li[data-step="sdk_initialized"]').textContent()) ?? '', /init did not run or the SDK key is wrong/);
  await screenshot(page, '06-setup-fresh');

  // A campaign: created as a draft; activation needs the minimum escrow, so the first try is refused (402).
  await page.getByLabel('Name', { exact: true }).fill('Launch');
  await page.getByLabel('Commission (%)').fill('30');
  await page.getByRole('button', { name: 'Create campaign (draft)' }).click();
  await page.getByRole('button', { name: 'Activate' }).click();
  await page.locator('#flash').waitFor();
  t.regex((await page.getByRole('alert').textContent()) ?? '', /top[- ]up/i);
  t.regex(page.url(), /\/dashboard\/apps\//, 'the refusal is shown on the page the button was on');
  await screenshot(page, '07-activation-needs-escrow');

  // A test-mode top-up through the signed link.
  await page.goto(url('/dashboard/wallet'));
  t.is(await page.locator('#wallet-balance').textContent(), '$0.00 USD');
  await page.getByLabel(/Amount/).fill('150');
  await page.getByRole('button', { name: 'Continue to top-up' }).click();
  await page.getByRole('heading', { name: 'Top up your wallet' }).waitFor();
  t.true(page.url().includes('/dashboard/links/wallet-topup?'));
  await screenshot(page, '08-topup-link');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('heading', { name: 'Confirm the top-up' }).waitFor();
  await page.getByRole('button', { name: 'Confirm test payment' }).click();
  await page.getByRole('heading', { name: 'Wallet top-up' }).waitFor();
  await page.goto(url('/dashboard/wallet'));
  t.is(await page.locator('#wallet-balance').textContent(), '$150.00 USD');
  t.regex((await page.locator('#ledger').textContent()) ?? '', /topup/);
  await screenshot(page, '09-wallet');

  await page.goto(url(`/dashboard/apps/${appId}`));
  await page.getByRole('button', { name: 'Activate' }).click();
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  t.is(await stepState('campaign_active'), 'done');

  // The app, a creator and the subscription provider, over HTTP.
  const campaign = await h().db('campaigns').where({ app_id: appId, status: 'active' }).first('id');
  const joined = await request(h().baseUrl, 'POST', `/api/public/campaigns/${campaign.id}/join`, {
    body: { name: 'Casey', email: `casey-${randomUUID()}@example.com`, social_handle: '@casey' },
  });
  t.is(joined.status, 201, joined.text);
  const code = joined.body.code as string;
  const slug = (await h().db('apps').where('id', appId).first('slug')).slug as string;
  const ip = '198.51.100.77';
  t.is(
    (
      await request(h().baseUrl, 'GET', `/${slug}/${code}`, {
        headers: { 'user-agent': IPHONE_UA, 'x-forwarded-for': ip, accept: 'text/html' },
      })
    ).status,
    302,
  );
  const sdk = sdkClient(h().baseUrl, sdkKey, ip);
  t.is((await sdk.post('/init', { app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios' })).status, 200);
  await page.reload();
  t.is(await stepState('sdk_initialized'), 'done');
  t.regex((await page.locator('#sdk-init').textContent()) ?? '', /ios.*fresh/s);
  const deviceId = randomUUID();
  t.like((await sdk.post('/track-install', { platform: 'ios', device_id: deviceId })).body, { attributed: true, referral_code: code });
  const user = `user-${randomUUID()}`;
  await sdk.post('/identify', { app_user_id: user, device_id: deviceId });
  t.is((await sdk.post('/event', { event_type: 'paywall_viewed', app_user_id: user })).status, 200);
  await page.reload();
  t.is(await stepState('sdk_event_received'), 'done');

  t.is((await sendWebhook(h().baseUrl, appId, 'rc_webhook_wrong', { api_version: '1.0', event: { type: 'TEST' } })).status, 401);
  await page.reload();
  t.is(await page.locator('#rejected-count').textContent(), '1');
  const purchase = await sendWebhook(h().baseUrl, appId, webhookSecret, subscription(user, code)('initial_purchase'));
  t.is(purchase.status, 200, purchase.text);
  t.falsy(purchase.body.error, purchase.text);
  await page.reload();
  for (const step of ['validation_configured', 'subprovider_webhook_wired', 'purchase_webhook_seen', 'attributed_conversion'])
    t.is(await stepState(step), 'done', step);
  t.regex((await page.locator('#checklist').textContent()) ?? '', /live/);
  await screenshot(page, '10-setup-live');

  // Regenerating the webhook secret shows the new one once; the old one dies.
  await page.getByRole('button', { name: 'Regenerate webhook secret' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Regenerate webhook secret' }).click();
  const fresh = await page.locator('#webhook_secret').inputValue();
  t.not(fresh, webhookSecret);
  t.is((await sendWebhook(h().baseUrl, appId, webhookSecret, { api_version: '1.0', event: { type: 'TEST' } })).status, 401);
  webhookSecret = fresh;
});

test.serial('an agent key with chosen scopes is shown once, works, and gets 401 once revoked', async (t) => {
  await page.goto(url('/dashboard/agents'));
  await page.getByLabel('Name').fill('Browser agent');
  await page.getByRole('checkbox', { name: /billing:read/ }).uncheck();
  await screenshot(page, '11-connect-agent');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.locator('#agent_key').inputValue();
  t.regex(key, /^it_mcp_/);
  const who = await request(h().baseUrl, 'GET', '/api/agent/whoami', { token: key });
  t.is(who.status, 200);
  t.false(who.body.scopes.includes('billing:read'));
  t.true(who.body.scopes.includes('apps:read'));
  t.is((await request(h().baseUrl, 'GET', '/api/agent/wallet', { token: key })).status, 403);
  await page.getByRole('link', { name: 'I stored it, continue' }).click();
  await page.getByRole('button', { name: 'Revoke Browser agent' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke Browser agent' }).click();
  await page.getByRole('status').waitFor();
  await screenshot(page, '12-agent-key-revoked');
  t.is((await request(h().baseUrl, 'GET', '/api/agent/whoami', { token: key })).status, 401);
});

test.serial("a cross-site page's form posts are refused: nothing is created or rotated", async (t) => {
  const before = await h().db('apps').where('id', appId).first('webhook_secret_hash');
  const keysBefore = await h().db('agent_keys').count<{ n: string }[]>('* as n');
  // Another site (localhost is another site than 127.0.0.1) whose forms post to the dashboard on load.
  const target = h().baseUrl;
  const evil: Server = createServer((req, res) => {
    const action = req.url === '/rotate' ? `${target}/api/apps/${appId}/regenerate-webhook-secret` : `${target}/dashboard/agents/keys`;
    res.setHeader('content-type', 'text/html');
    res.end(
      `<form id="f" method="post" action="${action}"><input name="name" value="evil"><input ` +
        `name="scope" value="apps:read"></form><script>document.getElementById('f').submit()</script>`,
    );
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  const evilOrigin = `http://localhost:${(evil.address() as AddressInfo).port}`;
  try {
    const rotate = page.waitForResponse((r) => r.url().includes('/regenerate-webhook-secret'));
    await page.goto(`${evilOrigin}/rotate`);
    t.is((await rotate).status(), 401);
    await screenshot(page, '13-cross-site-refused');
    const create = page.waitForResponse((r) => r.url().endsWith('/dashboard/agents/keys'));
    await page.goto(`${evilOrigin}/key`);
    const answer = await create;
    // No session cookie crossed sites (SameSite=Lax): the dashboard sends the browser to sign in, creating nothing.
    t.is(answer.status(), 302);
    t.regex((await answer.allHeaders()).location ?? '', /^\/dashboard\/login\?return_to=/);
  } finally {
    await new Promise<void>((resolve) => evil.close(() => resolve()));
  }
  t.deepEqual(await h().db('apps').where('id', appId).first('webhook_secret_hash'), before);
  t.deepEqual(await h().db('agent_keys').count<{ n: string }[]>('* as n'), keysBefore);
  // The same browser is still signed in for same-site use.
  await page.goto(url('/dashboard/team'));
  await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
  await screenshot(page, '14-team');
});
