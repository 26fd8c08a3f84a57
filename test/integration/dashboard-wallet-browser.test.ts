// The wallet page in a real browser (playwright-core driving Chromium): the demo owner signs in, turns auto-recharge
// on in test mode and sees its settings; a commission earned by the real worker becomes payable (a holding-period
// day lasts 500 ms here), the owner previews a payout run, confirms it, and the payout appears on the run's page and
// in the wallet's history and ledger. Screenshots: test-output/screenshots/ (wallet-*.png).
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { refreshPayoutAccount, connectPayoutAccount } from '../../actions/payout-accounts.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { pageProblems } from '../helpers/page-checks.js';
import { makePayableCommission } from '../helpers/payable.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '500', PAYMENT_PROVIDER: 'test' } });
let browser: Browser;
let page: Page;

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
});
test.after.always(async () => {
  await browser?.close();
});

const url = (path: string) => `${h().baseUrl}${path}`;
const cell = (id: string) => page.locator(`#${id}`).textContent();

test.serial('sign in and turn auto-recharge on in test mode from the wallet page', async (t) => {
  await page.goto(url('/dashboard/wallet'));
  await page.getByLabel('Email').fill(seed.user_email);
  await page.getByLabel('Password').fill(seed.user_password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Wallet' }).waitFor();
  t.is(await cell('ar-state'), 'off');
  await page.getByLabel(/When the safe balance falls below/).fill('40');
  await page.getByLabel(/charge this amount/).fill('120');
  await page.getByRole('radio').first().check();
  await screenshot(page, 'wallet-01-auto-recharge-form');
  await page.getByRole('button', { name: 'Turn auto-recharge on' }).click();
  await page.getByRole('status').filter({ hasText: 'Auto-recharge is on' }).waitFor();
  t.is(await cell('ar-state'), 'on');
  t.is(await cell('ar-threshold'), '$40.00 USD');
  t.is(await cell('ar-amount'), '$120.00 USD');
  t.is(await cell('ar-provider'), 'test');
  const saved = await h().db('organizations').where('id', seed.org_id).first('auto_recharge_enabled', 'auto_recharge_payment_method_label');
  t.true(saved.auto_recharge_enabled);
  t.is(await cell('ar-card'), saved.auto_recharge_payment_method_label);
  t.true(page.url().endsWith('/dashboard/wallet/auto-recharge'));
  await screenshot(page, 'wallet-02-auto-recharge-on');
});

test.serial('a payable commission is previewed, paid once on confirm, and shown on the run page and in the wallet', async (t) => {
  const commission = await makePayableCommission(h().db, h().baseUrl, seed, 'wallet-browser');
  // The creator has a ready payout account (test mode), so the run's transfer goes out instead of being returned.
  const connect = { db: h().db, config: h().config };
  await connectPayoutAccount(connect, commission.creator_id, 'US', { returnUrl: url('/r'), refreshUrl: url('/f') });
  await refreshPayoutAccount(connect, commission.creator_id);
  await page.goto(url('/dashboard/wallet'));
  t.regex((await cell('payouts-payable')) ?? '', /\(1 commission/);
  await screenshot(page, 'wallet-03-payable');
  await page.getByRole('button', { name: 'Preview a payout run' }).click();
  await page.getByRole('heading', { name: 'Payout preview' }).waitFor();
  const runId = await page.locator('input[name="run_id"]').inputValue();
  t.is(await h().db('payout_runs').where('id', runId).first(), undefined, 'the preview paid nothing');
  await screenshot(page, 'wallet-04-payout-preview');
  const problems = await pageProblems(page, 'payout preview');
  await page.getByRole('button', { name: /^Pay 1 creator/ }).click();
  await page.getByRole('heading', { name: 'Payout run' }).waitFor();
  t.true(page.url().endsWith(`/dashboard/wallet/payouts/${runId}`));
  const table = (await page.locator('table').first().textContent()) ?? '';
  t.true(table.includes(commission.creator_id));
  t.true(table.includes(`Run ${runId}`));
  await screenshot(page, 'wallet-05-payout-run');
  problems.push(...(await pageProblems(page, 'payout run')));
  t.deepEqual(problems, [], 'the payout pages fit 390 px and pass axe');
  // A reload of the run's page reads; it never pays again.
  await page.reload();
  t.is((await h().db('payouts').where('run_id', runId)).length, 1);
  t.like(await h().db('commissions').where('id', commission.id).first(), { status: 'paid' });

  await page.getByRole('link', { name: 'Back to the wallet' }).click();
  await page.locator(`[data-run="${runId}"]`).waitFor();
  t.regex((await cell('payouts-paid')) ?? '', /\(1\)/);
  t.regex((await page.locator('#ledger').textContent()) ?? '', /payout/);
  await screenshot(page, 'wallet-06-after-payout');
  await assertExactBooks(t, h().db, seed.org_id);
});
