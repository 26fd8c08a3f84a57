// The campaign and analytics pages in a real browser (playwright-core driving Chromium; no browser is a failure):
// an owner whose wallet is empty creates a campaign, is refused activation with the 402 and the way to the top-up,
// tops up in test mode, activates, edits the terms, localizes (fresh, then stale), previews the join page in German
// and pauses. Then the analytics page of a campaign with seeded production activity (and a sandbox purchase that
// must not count): the Chart.js charts' datasets, read from the page, and the HTML tables equal what the agent
// API's analytics endpoints answer for the same range. Screenshots: test-output/screenshots/.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { addMembership, createUser } from '../../db/organizations-writes.js';
import { hashPassword } from '../../lib/passwords.js';
import { SCOPES } from '../../lib/scopes.js';
import { launchChromium, screenshot, signInInBrowser } from '../helpers/chromium.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test, { env: { TRUST_PROXY: 'true', PAYMENT_PROVIDER: 'test' } });
let browser: Browser;
let page: Page;
let app: SeededApp;
let agentKey = '';
const email = `owner+${Date.now()}@example.com`;
const password = 'a long enough password';

test.before(async () => {
  await h.ready();
  app = await seedApp(h().db, { walletUsd: 0 });
  const user = await createUser(h().db, { email, passwordHash: await hashPassword(password), name: 'Owner', emailVerified: true });
  await addMembership(h().db, app.org_id, user.id, 'owner');
  agentKey = (await createAgentKey(h().db, { orgId: app.org_id, name: 'comparison', scopes: [...SCOPES] })).key;
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await signInInBrowser(page, h().baseUrl, email, password);
});
test.after.always(async () => {
  await browser?.close();
});

function url(path: string): string {
  return `${h().baseUrl}${path}`;
}
const campaignStatus = () => page.locator('#campaign-status').textContent();

test.serial(
  'a campaign is created, refused activation with the way to top up (402), activated after a test top-up, edited, localized and paused',
  async (t) => {
    await page.getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Summer push');
    await page.getByLabel('Commission (%)').fill('20');
    await page.getByLabel(/Holding period/).fill('14');
    await page.getByLabel('Who may join').selectOption('public');
    await screenshot(page, 'campaigns-01-list-create');
    await page.getByRole('button', { name: 'Create campaign (draft)' }).click();
    const row = page.locator('tr', { hasText: 'Summer push' });
    t.is(await row.locator('td.status').textContent(), 'draft');
    const created = await h()
      .db('campaigns')
      .where({ app_id: app.app_id, name: 'Summer push' })
      .first('id', 'holding_period_days', 'status');
    t.like(created, { holding_period_days: 14, status: 'draft' });
    await row.getByRole('link', { name: 'Summer push' }).click();
    await page.getByRole('heading', { name: 'Campaign Summer push' }).waitFor();

    // The wallet is empty: activation answers 402 with the way to the wallet's top-up form.
    const refused = page.waitForResponse((r) => r.url().endsWith(`/api/campaigns/${created.id}/status`));
    await page.getByRole('button', { name: 'Activate' }).click();
    t.is((await refused).status(), 303, 'the refusal redirects back to the page (Post/Redirect/Get)');
    await page.locator('#flash').waitFor();
    t.regex((await page.getByRole('alert').textContent()) ?? '', /minimum escrow|top[- ]up/i);
    await screenshot(page, 'campaigns-02-activation-402');
    await page.getByRole('link', { name: 'Top up the wallet' }).click();
    await page.getByLabel(/Amount/).fill('150');
    await page.getByRole('button', { name: 'Continue to top-up' }).click();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('button', { name: 'Confirm test payment' }).click();
    await page.getByRole('heading', { name: 'Wallet top-up' }).waitFor();

    await page.goto(url(`/dashboard/campaigns/${created.id}`));
    await page.getByRole('button', { name: 'Activate' }).click();
    t.is(await campaignStatus(), 'active');

    // Terms, including the holding period, through the edit form.
    await page.getByLabel(/Holding period/).fill('21');
    await page.getByLabel('Description', { exact: true }).fill('Tell your followers about summer');
    await page.getByRole('button', { name: 'Save terms' }).click();
    t.is(await page.getByLabel(/Holding period/).inputValue(), '21');
    t.like(await h().db('campaigns').where('id', created.id).first('holding_period_days', 'description'), {
      holding_period_days: 21,
      description: 'Tell your followers about summer',
    });

    // A German translation is fresh; changing the source text makes it stale.
    await page.getByLabel('Locale (e.g. de, pt-BR)').fill('de');
    await page.getByLabel('Translated name').fill('Sommeraktion');
    await page.getByLabel('Translated description').fill('Erzähl deinen Followern vom Sommer');
    await page.getByRole('button', { name: 'Save translation' }).click();
    t.is(await page.locator('tr[data-locale="de"] td:nth-child(4)').textContent(), 'fresh');
    await screenshot(page, 'campaigns-03-localized-fresh');

    // The join page in German shows the translation.
    const preview = await page.getByRole('link', { name: 'Preview in de' }).getAttribute('href');
    t.regex(preview ?? '', new RegExp(`/join/${created.id}\\?lang=de$`));
    const join = await (await browser.newContext()).newPage();
    await join.goto(preview!);
    await join.getByRole('heading', { name: /Sommeraktion/ }).waitFor();
    t.is(await join.locator('html').getAttribute('lang'), 'de');
    await screenshot(join, 'campaigns-04-join-preview-de');
    await join.close();

    await page.getByLabel('Description', { exact: true }).fill('Summer, now with a better offer');
    await page.getByRole('button', { name: 'Save terms' }).click();
    t.is(await page.locator('tr[data-locale="de"] td:nth-child(4)').textContent(), 'stale');

    await page.getByRole('button', { name: 'Pause' }).click();
    t.is(await campaignStatus(), 'paused');
    t.is((await h().db('campaigns').where('id', created.id).first('status')).status, 'paused');
    await screenshot(page, 'campaigns-05-paused-stale');
  },
);

test.serial('the analytics charts draw the numbers the agent API gives for the same range (production only)', async (t) => {
  // Seeded activity on the seeded app's active campaign: two clicks, an attributed install, a production purchase
  // and a sandbox purchase (which must not count).
  await h().db('apps').where('id', app.app_id).update({ ios_store_url: 'https://apps.apple.com/us/app/test/id1234567890' });
  const { slug } = await h().db('apps').where('id', app.app_id).first('slug');
  const clicks: string[] = [];
  for (const ip of ['198.51.100.21', '198.51.100.22']) {
    const res = await request(h().baseUrl, 'GET', `/${slug}/${app.creator_code}`, {
      headers: { accept: 'text/html', 'user-agent': IPHONE_UA, 'x-forwarded-for': ip },
    });
    t.is(res.status, 302);
    clicks.push(new URL(res.headers.get('location')!).searchParams.get('svc_click')!);
  }
  const install = await sdkClient(h().baseUrl, app.sdk_key, '198.51.100.21').post('/track-install', {
    platform: 'ios',
    device_id: randomUUID(),
    referral_code: app.creator_code,
    click_id: clicks[0],
  });
  t.true(install.body.attributed, install.text);
  for (const [user, environment] of [
    ['paying-user', 'PRODUCTION'],
    ['sandbox-user', 'SANDBOX'],
  ] as const) {
    const res = await sendWebhook(
      h().baseUrl,
      app.app_id,
      app.webhook_secret,
      subscription(user, app.creator_code)('initial_purchase', { environment }),
    );
    t.is(res.status, 200, res.text);
  }
  for (let i = 0; i < 300; i++) {
    const rows = await h().db('commissions').where('app_id', app.app_id).select('environment');
    if (rows.length >= 2) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  await page.goto(url(`/dashboard/campaigns/${app.campaign_id}/analytics`));
  await page.waitForFunction(() => {
    const C = (globalThis as unknown as { Chart?: { getChart(id: string): unknown } }).Chart;
    return C?.getChart('daily-chart') && C.getChart('funnel-chart') && C.getChart('top-chart');
  });
  const from = await page.getByLabel('From (UTC day)').inputValue();
  const to = await page.getByLabel('To (UTC day)').inputValue();
  const charts = await page.evaluate(() => {
    const C = (
      globalThis as unknown as {
        Chart: { getChart(id: string): { data: { labels: unknown[]; datasets: { label: string; data: unknown[] }[] } } };
      }
    ).Chart;
    return Object.fromEntries(
      ['daily-chart', 'funnel-chart', 'top-chart'].map((id) => {
        const { labels, datasets } = C.getChart(id).data;
        return [id, { labels, datasets: Object.fromEntries(datasets.map((d) => [d.label, d.data])) }];
      }),
    );
  });
  const canvasWidth = await page.locator('#daily-chart').evaluate((c) => (c as unknown as { width: number }).width);
  t.true(canvasWidth > 0, 'the chart was drawn on its canvas');
  await screenshot(page, 'campaigns-06-analytics-charts');

  const agent = async (path: string) => {
    const res = await request(h().baseUrl, 'GET', `/api/agent${path}${path.includes('?') ? '&' : '?'}from=${from}&to=${to}`, {
      token: agentKey,
    });
    t.is(res.status, 200, res.text);
    return res.body;
  };
  const daily = await agent(`/campaigns/${app.campaign_id}/daily-performance`);
  const funnel = await agent(`/campaigns/${app.campaign_id}/funnel`);
  const top = await agent(`/analytics/top-affiliates?campaign_id=${app.campaign_id}&limit=10`);
  type Day = { date: string; clicks: number; attributed_installs: number; trials: number; conversions: number; revenue_usd: number };
  const days = daily.days as Day[];

  t.deepEqual(
    charts['daily-chart']!.labels,
    days.map((d) => d.date),
  );
  t.deepEqual(charts['daily-chart']!.datasets, {
    Clicks: days.map((d) => d.clicks),
    'Attributed installs': days.map((d) => d.attributed_installs),
    Trials: days.map((d) => d.trials),
    Conversions: days.map((d) => d.conversions),
    'Revenue (USD)': days.map((d) => d.revenue_usd),
  });
  t.deepEqual(charts['funnel-chart']!.datasets, { Funnel: [funnel.clicks, funnel.attributed_installs, funnel.trials, funnel.conversions] });
  type Affiliate = { code: string; conversions: number; clicks: number };
  t.deepEqual(
    charts['top-chart']!.labels,
    (top.affiliates as Affiliate[]).map((a) => a.code),
  );
  t.deepEqual(charts['top-chart']!.datasets, {
    Conversions: (top.affiliates as Affiliate[]).map((a) => a.conversions),
    Clicks: (top.affiliates as Affiliate[]).map((a) => a.clicks),
  });

  // Real numbers, production only: two clicks, one attributed install, one paid conversion (the sandbox one is out).
  t.like(funnel, { clicks: 2, attributed_installs: 1, conversions: 1 });
  t.true(funnel.revenue_usd > 0);
  // The accessible tables carry the same numbers.
  const cell = (metric: string) => page.locator(`#funnel-table tr[data-metric="${metric}"] td`).textContent();
  t.is(await cell('clicks'), String(funnel.clicks));
  t.is(await cell('conversions'), String(funnel.conversions));
  t.is(await cell('revenue_usd'), `$${(funnel.revenue_usd as number).toFixed(2)}`);
  const today = days.at(-1)!;
  t.is(await page.locator(`#daily-table tr[data-date="${today.date}"] td:nth-child(2)`).textContent(), String(today.clicks));
  t.is(await page.locator(`#top-table tr[data-code="${app.creator_code}"] td:nth-child(6)`).textContent(), '1');
});
