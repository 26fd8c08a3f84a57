// Issue 36's returned payout in Chromium (playwright-core): the same real path as payouts-returned.test.ts (the
// creator's account is ready by Stripe's account.updated, then the Stripe stub refuses the transfer), but the owner
// runs the payout from the wallet page and the creator signs in through the mailed link. The run's page and the
// creator's campaign page and statement say "returned: nothing was paid" with the reason and never "paid"; the
// statement's figures add up as printed. Each page passes pageProblems (axe, 390 px) and is saved at 1280 and 390 px
// under test-output/screenshots/returned-*.
import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { latestSignInLink } from '../helpers/creator-mail.js';
import { makePayableCommission } from '../helpers/payable.js';
import { problemsAndScreenshots } from '../helpers/page-checks.js';
import { connectReady, mountConnect, payoutIn } from '../helpers/payouts.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { stripeStubEnv, useStripeStub } from '../helpers/stripe-stub-harness.js';

const CONNECT_SECRET = 'whsec_test_connect';
const { h, seed } = useSeededHarness(test, {
  env: stripeStubEnv({ STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET, HOLDING_PERIOD_DAY_MS: '500' }),
  mount: mountConnect,
});
const stripe = useStripeStub(test, h);
let browser: Browser;

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
});

const url = (p: string) => `${h().baseUrl}${p}`;
const RETURNED = /returned: nothing was paid \(Stripe refused the transfer: Your destination account needs/;
/** "$12.34 USD" or "-$3.33 USD" as micros. */
const micros = (text: string) => {
  const m = /^(-?)\$([\d,]+)\.(\d\d) USD$/.exec(text.trim());
  if (!m) throw new Error(`not an amount: ${text}`);
  return (m[1] ? -1 : 1) * (Number(m[2]!.replaceAll(',', '')) * 1_000_000 + Number(m[3]) * 10_000);
};

/** The page passes the checks, and is saved at 1280 and at 390 px. */
async function look(t: ExecutionContext, page: Page, name: string): Promise<void> {
  t.deepEqual(await problemsAndScreenshots(page, `returned-${name}`), [], name);
}

test('a refused transfer on the run page, the campaign page and the statement: returned with the reason, never paid', async (t) => {
  const { db } = h();
  const stub = stripe();
  const commission = await makePayableCommission(db, h().baseUrl, seed, 'returned-browser');
  const creatorId = commission.creator_id;
  await connectReady(h().baseUrl, db, stub, CONNECT_SECRET, creatorId);
  stub.connect.balance.available = 1_000_000;
  const account = await db('payout_accounts').where('creator_id', creatorId).first();
  // The account lost its transfers capability before we heard: Stripe refuses the transfer.
  stub.connect.accounts.get(account.external_id)!.capabilities.transfers = 'inactive';

  // The developer runs the payout from the wallet page and reads the run's page.
  const owner = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await owner.goto(url('/dashboard/wallet'));
  await owner.getByLabel('Email').fill(seed.user_email);
  await owner.getByLabel('Password').fill(seed.user_password);
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await owner.getByRole('button', { name: 'Preview a payout run' }).click();
  await owner.getByRole('heading', { name: 'Payout preview' }).waitFor();
  const runId = await owner.locator('input[name="run_id"]').inputValue();
  await owner.getByRole('button', { name: /^Pay 1 creator/ }).click();
  await owner.getByRole('heading', { name: 'Payout run' }).waitFor();
  t.true(owner.url().endsWith(`/dashboard/wallet/payouts/${runId}`));
  const payout = await payoutIn(db, seed.org_id, creatorId, 'returned');
  t.is(stub.connect.transfers.size, 0, 'no money moved');
  await owner.reload();
  const runRow = owner.locator('[data-status="returned"]');
  t.is(await runRow.count(), 1);
  t.regex((await runRow.textContent())!, RETURNED);
  t.is(await owner.locator('[data-status="paid"], [data-status="sending"]').count(), 0);
  await look(t, owner, 'run-page');

  // The creator signs in through the mailed link and opens the campaign page, then the statement.
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const email = (await db('creators').where('id', creatorId).first('email')).email as string;
  await page.goto(url('/dashboard/creator/sign-in'));
  await page.getByLabel('Email you joined with').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('status').filter({ hasText: 'a sign-in link is on its way' }).waitFor();
  await page.goto((await latestSignInLink(db, email))!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My campaigns' }).waitFor();
  await page.goto(url(`/dashboard/creator/campaigns/${seed.campaign_id}`));
  const listed = page.locator('td[data-status="returned"]');
  t.regex((await listed.textContent())!, RETURNED);
  await look(t, page, 'campaign-payouts');

  await page.goto(url(`/dashboard/creator/payouts/${payout.id}`));
  t.regex((await page.locator('#statement-returned').textContent())!, RETURNED);
  t.regex((await page.locator('#statement-status').textContent())!, RETURNED);
  const words = (await page.locator('main').textContent())!.replaceAll('nothing was paid', '').replaceAll('not paid', '');
  t.false(/\bpaid\b/i.test(words), `nowhere "paid": ${words}`);
  // The totals add up as printed: commissions + awards - clawbacks = net, and the lines sum to the net too.
  const totals = await page.locator('#statement-totals tbody tr td').allTextContents();
  const [commissions, awards, clawbacks, net] = totals.slice(0, 4).map(micros);
  t.is(commissions! + awards! + clawbacks!, net!);
  t.is(totals[2]!.trim(), '$0.00 USD', 'nothing netted shows no minus sign');
  t.is(net, micros(`$${(Number(payout.net_micros) / 1_000_000).toFixed(2)} USD`));
  t.deepEqual(await page.locator('#statement-lines tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-kind'))), [
    'Commission',
  ]);
  // The amount is the cell before the basis (issue 38), the row's last.
  const lineAmounts = await page.locator('#statement-lines tbody tr td:nth-last-child(2)').allTextContents();
  t.is(
    lineAmounts.map(micros).reduce((a, b) => a + b, 0),
    net!,
    'the lines add up to the net',
  );
  t.is((await page.locator('#statement-totals th').nth(3).textContent())!.trim(), 'Net (returned: not paid)');
  await look(t, page, 'statement');
});
