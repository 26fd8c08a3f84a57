// The dashboard's layout in a real browser (playwright-core driving Chromium; one server and one browser for the
// file): the widest real tables (creators, live events, bonus awards), seeded with long names through the real
// purchase pipeline, show at 1280 px without a horizontal scroller the columns a person came for (revenue and
// commission, price and commission, Approve and Void), with the actions in the last column and no code broken inside
// itself; at 390 px the table scrolls inside its box while its first column and its action column stay in view.
// The shell names the product and the organization and switches between a user's organizations; the agent-key
// copy button keeps the page inside 1280 px; the overview's cards equal the analytics page's figures, day by day.
// axe on each page (page-checks.ts); screenshots test-output/screenshots/layout-*-{1280,390}.png.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, signInInBrowser } from '../helpers/chromium.js';
import { makePayableCommission } from '../helpers/payable.js';
import { problemsAndScreenshots } from '../helpers/page-checks.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '300' } });
let browser: Browser;
let page: Page;
const started = Date.now();
const url = (p: string) => `${h().baseUrl}${p}`;
const LONG_CREATOR = 'Maximilian Alexander Wolfeschlegelsteinhausen-Bergerdorff Productions International';
const LONG_CAMPAIGN = 'Spring launch of the premium annual subscription with extended onboarding benefits';
const SECOND_ORG = `Second Studio ${randomUUID().slice(0, 4)}`;
const CREATOR_EMAIL = `a.very.long.mailbox.name.${randomUUID()}@example.com`;

test.before(async () => {
  await h.ready();
  const db = h().db;
  const creatorId = (await db('creator_codes').where('campaign_id', seed.campaign_id).first('creator_id')).creator_id as string;
  await db('creators').where('id', creatorId).update({ name: LONG_CREATOR, email: CREATOR_EMAIL });
  await db('campaigns').where('id', seed.campaign_id).update({ name: LONG_CAMPAIGN });
  const acct = { ...seed, webhook_secret: seed.webhook_secret };
  for (let i = 0; i < 2; i += 1) await makePayableCommission(db, h().baseUrl, acct, `buyer-with-a-long-app-user-id-${randomUUID()}`);
  const [rule] = await db('bonus_rules')
    .insert({ campaign_id: seed.campaign_id, name: 'Reach 2', threshold_conversions: 2, bonus_micros: 5e6 })
    .returning('id');
  await db('bonus_awards').insert({
    bonus_rule_id: rule.id,
    campaign_id: seed.campaign_id,
    creator_id: creatorId,
    org_id: seed.org_id,
    amount_micros: 5e6,
    threshold_conversions: 2,
    progress_count: 2,
    fraud_flags: JSON.stringify({ same_device_installs: 'two installs from one device fingerprint within an hour' }),
  });
  const user = await db('users').where('email', seed.user_email).first('id');
  const [org] = await db('organizations').insert({ name: SECOND_ORG, created_by_user_id: user.id }).returning('id');
  await db('memberships').insert({ org_id: org.id, user_id: user.id, role: 'owner' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
});
test.after.always(async (t) => {
  await browser?.close();
  t.log(`the file took ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

interface TableFit {
  page: number;
  inner: number;
  scroll: number;
  client: number;
  /** Header text → its right edge. */
  headers: Record<string, number>;
  /** Codes shown on more than one line. */
  brokenCodes: string[];
}

/** How table `sel` sits in the page now. */
const fitOf = (sel: string) =>
  page.evaluate((s): TableFit => {
    const table = document.querySelector(s)!;
    const box = table.closest('.table-scroll')!;
    const headers: Record<string, number> = {};
    for (const th of Array.from(table.querySelectorAll('thead th')))
      headers[th.textContent.replace(/ [▲▼]$/, '')] = th.getBoundingClientRect().right;
    const brokenCodes = Array.from(table.querySelectorAll('tbody code'))
      .filter((c) => c.getClientRects().length > 1 || c.getBoundingClientRect().height > parseFloat(getComputedStyle(c).fontSize) * 1.8)
      .map((c) => c.textContent);
    return {
      page: document.scrollingElement!.scrollWidth,
      inner: window.innerWidth,
      scroll: box.scrollWidth,
      client: box.clientWidth,
      headers,
      brokenCodes,
    };
  }, sel);

/** The boxes of `sel`'s matches (left and right edges), e.g. a row's first cell or its buttons. */
const edgesOf = (sel: string) =>
  page.locator(sel).evaluateAll((els) => els.map((e) => [e.getBoundingClientRect().left, e.getBoundingClientRect().right]));

async function checkWide(t: import('ava').ExecutionContext, table: string, wanted: string[]): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  const fit = await fitOf(table);
  t.true(
    fit.scroll <= fit.client + 1,
    `${table}: no horizontal scroller at 1280 px (${fit.scroll} > ${fit.client}; ${JSON.stringify(fit.headers)})`,
  );
  t.true(fit.page <= fit.inner, `${table}: the page fits 1280 px (${fit.page})`);
  for (const name of wanted) {
    t.true(name in fit.headers, `${table}: has the column ${name} (${Object.keys(fit.headers).join(', ')})`);
    t.true(fit.headers[name]! <= fit.inner, `${table}: ${name} is in view at 1280 px (${fit.headers[name]})`);
  }
  t.deepEqual(fit.brokenCodes, [], `${table}: no code breaks inside itself`);
}

/** At 390 px: the table may scroll, but scrolled to its far end its first column (and `action`) stay in view. */
async function checkPhone(t: import('ava').ExecutionContext, table: string, action?: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate((s) => {
    const box = document.querySelector(s)!.closest('.table-scroll')!;
    box.scrollLeft = box.scrollWidth;
  }, table);
  const inView = ([left, right]: number[]) => left! >= -1 && right! <= 391;
  const firsts = await edgesOf(`${table} tbody tr td:first-child`);
  t.true(firsts.length > 0 && firsts.every(inView), `${table}: first column in view at 390 px, scrolled (${JSON.stringify(firsts)})`);
  if (action) {
    const buttons = await edgesOf(`${table} tbody ${action}`);
    t.true(buttons.length > 0 && buttons.every(inView), `${table}: actions in view at 390 px (${JSON.stringify(buttons)})`);
  }
  await page.evaluate((s) => {
    document.querySelector(s)!.closest('.table-scroll')!.scrollLeft = 0;
  }, table);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.serial('creators: revenue and commission in view at 1280 px; the creator stays in view at 390 px', async (t) => {
  await page.goto(url('/dashboard/creators'));
  await page.locator('#creators tbody tr', { hasText: LONG_CREATOR }).waitFor();
  const problems = await problemsAndScreenshots(page, 'layout-creators');
  await checkWide(t, '#creators', ['Creator', 'Code', 'Revenue (USD)', 'Commission (USD)']);
  await checkPhone(t, '#creators');
  t.deepEqual(problems, []);
});

test.serial('live events: price and commission in view at 1280 px; the codes whole', async (t) => {
  await page.goto(url(`/dashboard/apps/${seed.app_id}/events`));
  await page.locator('tr[data-kind="purchase"] .attribution [data-state="attributed"]').first().waitFor();
  const problems = await problemsAndScreenshots(page, 'layout-events');
  const table = `#${await page
    .locator('tr[data-kind="purchase"]')
    .first()
    .evaluate((tr) => tr.closest('table')!.id)}`;
  await checkWide(t, table, ['Received', 'Code carried', 'Price (USD)', 'Commission (USD)']);
  await checkPhone(t, table);
  t.deepEqual(problems, []);
});

test.serial('bonus awards: Approve and Void in the last column at 1280 px and in view at 390 px', async (t) => {
  await page.goto(url('/dashboard/bonus-awards'));
  const row = page.locator('#awards tbody tr').first();
  await row.getByRole('button', { name: 'Approve' }).waitFor();
  const problems = await problemsAndScreenshots(page, 'layout-awards');
  t.is(await row.locator('.award-status [data-state]').getAttribute('data-state'), 'earned');
  await checkWide(t, '#awards', ['Creator', 'Amount', 'State', 'Actions']);
  const [approve] = await edgesOf('#awards tbody tr:first-child td:last-child button');
  t.true(approve![1]! <= 1280, 'Approve is in view at 1280 px');
  t.is(await row.locator('td:last-child').getByRole('button').count(), 2, 'Approve and Void share the last column');
  await checkPhone(t, '#awards', 'td:last-child button');
  t.deepEqual(problems, []);
});

test.serial('the agent-key copy button is short: the shown-once page fits 1280 px', async (t) => {
  await page.goto(url('/dashboard/agents'));
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
  const copy = page.getByRole('button', { name: 'Copy agent key' });
  await copy.waitFor();
  t.true((await copy.boundingBox())!.width < 250);
  t.true(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth));
  t.deepEqual(await problemsAndScreenshots(page, 'layout-agent-key'), []);
});

test.serial('the shell names the product and the organization, and switches between the organizations', async (t) => {
  await page.goto(url('/dashboard'));
  const orgName = (await h().db('organizations').where('id', seed.org_id).first('name')).name as string;
  t.is(await page.locator('#brand .product').textContent(), 'svc');
  t.is(await page.locator('#org-name').textContent(), orgName);
  await page.getByLabel('Switch organization').selectOption({ label: SECOND_ORG });
  await page.getByRole('button', { name: 'Switch' }).click();
  await page.locator('#org-name', { hasText: SECOND_ORG }).waitFor();
  t.regex(page.url(), /[?&]org=/);
  await page.getByRole('link', { name: 'Creators', exact: true }).click();
  t.is(await page.locator('#org-name').textContent(), SECOND_ORG, 'the organization is kept across the navigation');
  await page.goto(url('/dashboard'));
  t.is(await page.locator('#org-name').textContent(), orgName);
});

/** The analytics page's daily rows: date → [revenue, commission, installs, conversions] as shown. */
async function analyticsDays(): Promise<Map<string, string[]>> {
  const rows = await page
    .locator('#daily-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-date')!, ...Array.from(tr.querySelectorAll('td'), (td) => td.textContent)]),
    );
  // Columns: Clicks, Installs, Attributed installs, Trials, Conversions, Revenue, Commission.
  return new Map(rows.map((r) => [r[0]!, [r[6]!, r[7]!, r[2]!, r[5]!, r[1]!]]));
}

test.serial("the overview's cards equal the analytics page's figures, in total and day by day", async (t) => {
  await page.goto(url(`/dashboard/campaigns/${seed.campaign_id}/analytics`));
  await page.locator('#funnel-table').waitFor();
  const metrics = new Map(
    await page
      .locator('#funnel-table tr')
      .evaluateAll((trs) => trs.map((tr): [string, string] => [tr.getAttribute('data-metric')!, tr.querySelector('td')!.textContent])),
  );
  const funnel = (metric: string) => metrics.get(metric) ?? `no ${metric} on the analytics page`;
  const days = await analyticsDays();
  await page.goto(url('/dashboard'));
  await page.locator('#fig-revenue').waitFor();
  const card = (id: string) => page.locator(`#${id}`).textContent();
  // The analytics page writes $12.34, the cards $12.34 USD: the same number.
  const dollars = (s: string | null) => s!.replace(/ USD$/, '');
  t.is(dollars(await card('fig-revenue')), funnel('revenue_usd'));
  t.is(dollars(await card('fig-commission')), funnel('commission_usd'));
  t.is(await card('fig-installs'), funnel('installs'));
  t.is(await card('fig-conversions'), funnel('conversions'));
  t.is(await card('fig-clicks'), funnel('clicks'));
  t.not(funnel('commission_usd'), '$0.00', 'the seeded purchases earned commission');
  const trend = (id: string) =>
    page
      .locator(`[data-figure="${id}"] svg.spark`)
      .getAttribute('data-values')
      .then((v) => v!.split(' ').map(Number));
  const dates = [...days.keys()];
  t.is(dates.length, 30);
  const columns: [string, number, (n: number) => string][] = [
    ['fig-revenue', 0, (n) => `$${n.toFixed(2)}`],
    ['fig-commission', 1, (n) => `$${n.toFixed(2)}`],
    ['fig-installs', 2, String],
    ['fig-conversions', 3, String],
    ['fig-clicks', 4, String],
  ];
  for (const [id, col, shown] of columns) {
    const values = await trend(id);
    t.deepEqual(
      values.map(shown),
      dates.map((d) => days.get(d)![col]),
      `${id}: the trend is the analytics page's daily column`,
    );
  }
  const payable = await trend('fig-payable');
  t.is(payable.length, 30);
  t.true(payable.at(-1)! > 0, 'the commissions released today show in the payable trend');
  t.deepEqual(await problemsAndScreenshots(page, 'layout-overview'), []);
});

test.serial('the creator portal speaks the same visual system: state pills, figure cards, fitting 390 px', async (t) => {
  const { token } = await signInCreator(h().baseUrl, h().db, CREATOR_EMAIL);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'svc_creator', value: token, url: h().baseUrl }]);
  const portal = await context.newPage();
  await portal.goto(url('/dashboard/creator'));
  t.is(await portal.locator('td [data-state="active"]').first().textContent(), 'active', 'the campaign state is a pill');
  t.deepEqual(await problemsAndScreenshots(portal, 'layout-portal-home'), []);
  await portal.getByRole('link', { name: LONG_CAMPAIGN }).click();
  await portal.locator('#commissions').waitFor();
  const states = await portal.locator('#commissions .commission-state').evaluateAll((els) => els.map((e) => [e.className, e.textContent]));
  t.deepEqual(states, [
    ['badge ok commission-state', 'Payable'],
    ['badge ok commission-state', 'Payable'],
  ]);
  t.is(await portal.locator('#numbers .card #conversions').textContent(), '2');
  t.deepEqual(await problemsAndScreenshots(portal, 'layout-portal-campaign'), []);
  await context.close();
});
