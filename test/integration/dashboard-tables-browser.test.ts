// The dashboard's overview and tables in a real browser (playwright-core driving Chromium): the organization home's
// figures match the clicks and purchases the test made (through the referral link and the subscription provider's
// webhook, earned by the real worker) for each period preset; the creators table is searched, sorted and paged by
// its links, and its CSV export (all pages of the filtered view) holds exactly the rows the pages show, never
// another organization's creator, whose detail page is 404; a creator named "=cmd" exports as "'=cmd"; the bonus-rules
// editor refuses a duplicate threshold beside its field, then saves.
// Screenshots: test-output/screenshots/tables-*.png.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { issueCreatorCode } from '../../lib/codes.js';
import { PAGE_SIZE } from '../../lib/table-query.js';
import { launchChromium, screenshot, signInInBrowser } from '../helpers/chromium.js';
import { parseCsv } from '../helpers/csv.js';
import { makePayableCommission } from '../helpers/payable.js';
import { freshIp, tapReferralLink } from '../helpers/sdk-app.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '300' } });
let browser: Browser;
let page: Page;
let other: SeededApp;
const TAG = `Tbl${randomUUID().slice(0, 4)}`;
const url = (p: string) => `${h().baseUrl}${p}`;

async function addNamedCreator(name: string, where: { app_id: string; campaign_id: string } = seed): Promise<string> {
  const creator = await upsertCreator(h().db, { name, email: `${randomUUID()}@example.com` });
  await addCreatorCode(h().db, {
    appId: where.app_id,
    campaignId: where.campaign_id,
    creatorId: creator.id,
    code: issueCreatorCode(),
    source: 'seed',
  });
  return creator.id;
}

/** The cells' text of every body row of the table `id` on the page. */
// A time cell shows the viewer's local time; its `datetime` is the instant the CSV holds.
const rowsOf = (id: string) =>
  page
    .locator(`#${id} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => td.querySelector('time')?.getAttribute('datetime') ?? td.textContent ?? ''),
      ),
    );

/** Clicks the CSV link and reads the downloaded file. */
async function exportCsv(): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), rows: parseCsv(readFileSync(file, 'utf8')) };
}

test.before(async () => {
  await h.ready();
  other = await seedApp(h().db);
  browser = await launchChromium();
  page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
});
test.after.always(async () => {
  await browser?.close();
});

test.serial('the overview figures are the clicks and purchases made here, for every period preset', async (t) => {
  const { slug } = await h().db('apps').where('id', seed.app_id).first('slug');
  for (let i = 0; i < 3; i += 1) await tapReferralLink(h().baseUrl, slug, seed.creator_code, freshIp());
  const acct = { ...seed, webhook_secret: seed.webhook_secret };
  await makePayableCommission(h().db, h().baseUrl, acct, `buyer-${randomUUID()}`);
  await makePayableCommission(h().db, h().baseUrl, acct, `buyer-${randomUUID()}`);
  const earned = await h()
    .db('commissions')
    .where({ org_id: seed.org_id, environment: 'PRODUCTION' })
    .first(
      h().db.raw('coalesce(sum(revenue_usd_micros), 0)::bigint as revenue, coalesce(sum(commission_micros), 0)::bigint as commission'),
    );
  const payable = await h().db('commissions').where({ org_id: seed.org_id, status: 'payable' }).sum<{ sum: number }[]>('commission_micros');
  const ledger = await h()
    .db('wallet_ledger')
    .where('org_id', seed.org_id)
    .first(h().db.raw('sum(balance_delta_micros)::bigint - sum(reserved_delta_micros)::bigint as safe'));
  const usd = (micros: number) => `$${(Number(micros) / 1e6).toFixed(2)} USD`;
  t.true(Number(earned.commission) > 0);
  for (const days of [30, 7, 90]) {
    await page.goto(url('/dashboard'));
    await page.getByRole('link', { name: `${days} days`, exact: true }).click();
    await page.getByRole('heading', { name: `Last ${days} days` }).waitFor();
    t.is(await page.locator('#fig-clicks').textContent(), '3');
    t.is(await page.locator('#fig-installs').textContent(), '0');
    t.is(await page.locator('#fig-conversions').textContent(), '2');
    t.is(await page.locator('#fig-revenue').textContent(), usd(earned.revenue));
    t.is(await page.locator('#fig-commission').textContent(), usd(earned.commission));
    t.is(await page.locator('#fig-safe').textContent(), usd(ledger.safe));
    t.is(await page.locator('#fig-payable').textContent(), usd(payable[0]!.sum));
  }
  await screenshot(page, 'tables-01-overview');
});

test.serial(
  'the creators table: searched, sorted and paged by its links; the CSV ' +
    'export is every row of the view; another organization is absent and 404',
  async (t) => {
    for (let i = 0; i < PAGE_SIZE + 2; i += 1) await addNamedCreator(`${TAG} creator ${String(i).padStart(2, '0')}`);
    const outsider = await addNamedCreator(`${TAG} outsider`, other);
    await page.getByRole('link', { name: 'Creators', exact: true }).click();
    await page.getByLabel('Search creators').fill(TAG);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('#creators caption', { hasText: `of ${PAGE_SIZE + 2}` }).waitFor();
    // Sort by name: ascending, then descending with a second click.
    await page.locator('#creators thead a[data-sort="name"]').click();
    await page.locator('#creators th[aria-sort="ascending"]').waitFor();
    t.is((await rowsOf('creators'))[0]![0], `${TAG} creator 00`);
    await page.locator('#creators thead a[data-sort="name"]').click();
    await page.locator('#creators th[aria-sort="descending"]').waitFor();
    const firstPage = await rowsOf('creators');
    t.is(firstPage.length, PAGE_SIZE);
    t.is(firstPage[0]![0], `${TAG} creator ${String(PAGE_SIZE + 1).padStart(2, '0')}`);
    await screenshot(page, 'tables-02-creators-sorted');
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.locator('#creators caption', { hasText: `rows ${PAGE_SIZE + 1} to ${PAGE_SIZE + 2}` }).waitFor();
    const secondPage = await rowsOf('creators');
    t.deepEqual(
      secondPage.map((r) => r[0]),
      [`${TAG} creator 01`, `${TAG} creator 00`],
    );
    await screenshot(page, 'tables-03-creators-page-2');

    const csv = await exportCsv();
    t.is(csv.name, 'creators.csv');
    t.deepEqual(
      csv.rows[0],
      await page
        .locator('#creators thead th')
        .allTextContents()
        .then((hs) => hs.map((x) => x.replace(/ [▲▼]$/, ''))),
    );
    t.deepEqual(csv.rows.slice(1), [...firstPage, ...secondPage], 'the export holds every page of the view, cell for cell, in order');
    t.false(csv.rows.some((r) => r[0] === `${TAG} outsider`));

    // A creator's detail page from the table; another organization's creator is 404.
    await page.getByRole('link', { name: `${TAG} creator 01` }).click();
    await page.getByRole('heading', { name: `Creator ${TAG} creator 01` }).waitFor();
    t.is(await page.locator('#creator-commission').textContent(), '$0.00 USD');
    const notFound = await page.goto(url(`/dashboard/creators/${outsider}`));
    t.is(notFound?.status(), 404);
    await page.getByRole('heading', { name: 'Creator not found' }).waitFor();
    await screenshot(page, 'tables-04-creator-404');
  },
);

test.serial('the seeded creator page shows the commission earned here; a creator named "=cmd" exports as text', async (t) => {
  const seeded = (await h().db('creator_codes').where({ app_id: seed.app_id, code: seed.creator_code }).first('creator_id'))
    .creator_id as string;
  const earned = await h()
    .db('commissions')
    .where({ org_id: seed.org_id, creator_id: seeded, environment: 'PRODUCTION' })
    .sum<{ sum: number }[]>('commission_micros');
  await page.goto(url(`/dashboard/creators/${seeded}`));
  t.is(await page.locator('#creator-commission').textContent(), `$${(Number(earned[0]!.sum) / 1e6).toFixed(2)} USD`);
  await screenshot(page, 'tables-05-creator');

  await addNamedCreator('=cmd');
  await page.goto(url('/dashboard/creators'));
  await page.getByLabel('Search creators').fill('=cmd');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.locator('#creators caption', { hasText: 'of 1' }).waitFor();
  t.is((await rowsOf('creators'))[0]![0], '=cmd', 'the page shows the name as typed');
  const csv = await exportCsv();
  t.is(csv.rows.length, 2);
  t.is(csv.rows[1]![0], "'=cmd", 'the export prefixes it, so a spreadsheet shows text instead of running a formula');
});

test.serial(
  'the bonus-rules editor: a duplicate threshold is refused beside its field with the typed values kept, then saved',
  async (t) => {
    await page.goto(url(`/dashboard/campaigns/${seed.campaign_id}`));
    const rule = (i: number) => page.locator(`fieldset[data-rule="${i}"]`);
    await rule(0).getByLabel('Conversions to reach').fill('5');
    await rule(0).getByLabel('Bonus (USD)').fill('25');
    await rule(1).getByLabel('Conversions to reach').fill('5');
    await rule(1).getByLabel('Bonus (USD)').fill('40');
    await rule(1).getByLabel('Name (optional)').fill('Big five');
    await page.getByRole('button', { name: 'Save bonus rules' }).click();
    await page.getByText('Threshold 5 appears twice: thresholds must be distinct.').waitFor();
    t.is(await rule(1).getByLabel('Bonus (USD)').inputValue(), '40');
    t.is(await rule(1).getByLabel('Name (optional)').inputValue(), 'Big five');
    t.is(await rule(1).getByLabel('Conversions to reach').getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'tables-06-bonus-rules-refused');
    await rule(1).getByLabel('Conversions to reach').fill('10');
    await page.getByRole('button', { name: 'Save bonus rules' }).click();
    await page.locator('fieldset[data-rule="1"] input[name="threshold_1"][value="10"]').waitFor();
    const rules = await h()
      .db('bonus_rules')
      .where({ campaign_id: seed.campaign_id, active: true })
      .orderBy('threshold_conversions')
      .select('threshold_conversions', 'bonus_micros', 'name');
    t.deepEqual(
      rules.map((r) => [r.threshold_conversions, Number(r.bonus_micros), r.name]),
      [
        [5, 25_000_000, '5 conversions bonus'],
        [10, 40_000_000, 'Big five'],
      ],
    );
    await screenshot(page, 'tables-07-bonus-rules-saved');
  },
);
