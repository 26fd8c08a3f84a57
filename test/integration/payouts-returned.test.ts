// Returned is never paid (lib/payout-status.ts), through the Stripe stub: a creator's account is ready by Stripe's
// account.updated, then Stripe refuses the transfer (the account lost its transfers capability before we heard), so
// the on-demand run's payout is returned. Every surface says "returned: nothing was paid" with the reason, none says
// paid: the run's page, the developer's creator page and payouts CSV, the creator's campaign page, statement and its
// CSV, and `svc payouts run` repeated with the run id (JSON and words).
import test from 'ava';
import { inputValue } from '../helpers/browser.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { parseCsv } from '../helpers/csv.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { makePayableCommission } from '../helpers/payable.js';
import { connectReady, mountConnect, payoutIn } from '../helpers/payouts.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { stripeStubEnv, useStripeStub } from '../helpers/stripe-stub-harness.js';

const CONNECT_SECRET = 'whsec_test_connect';
const { h, seed } = useSeededHarness(test, {
  env: stripeStubEnv({ STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET, HOLDING_PERIOD_DAY_MS: '500' }),
  mount: mountConnect,
});
const stripe = useStripeStub(test, h);

// On pages the state word is a pill (`<span …>returned</span>: nothing was paid …`); the CLI writes it plain.
const RETURNED = /returned(?:<\/span>)?: nothing was paid \(Stripe refused the transfer: Your destination account needs/;

test('a transfer Stripe refuses: returned, with the reason, on every surface; nowhere paid', async (t) => {
  const { db } = h();
  const stub = stripe();
  const commission = await makePayableCommission(db, h().baseUrl, seed, 'returned-everywhere');
  const creatorId = commission.creator_id;
  await connectReady(h().baseUrl, db, stub, CONNECT_SECRET, creatorId);
  stub.connect.balance.available = 1_000_000;
  const account = await db('payout_accounts').where('creator_id', creatorId).first();
  stub.connect.accounts.get(account.external_id)!.capabilities.transfers = 'inactive';

  const owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const page = (path: string) => owner.browser.fetch(`${h().baseUrl}${path}`);
  const preview = await page('/dashboard/wallet/payouts/preview');
  t.regex(preview.text, /Pay 1 creator /, 'the account is ready as far as we know: the run pays it');
  const runId = inputValue(preview.text, 'run_id')!;
  const done = await owner.browser.fetch(`${h().baseUrl}/dashboard/wallet/payouts/run`, {
    form: { csrf: inputValue(preview.text, 'csrf')!, run_id: runId },
  });
  t.is(done.status, 303);
  const payout = await payoutIn(db, seed.org_id, creatorId, 'returned');
  t.is(stub.connect.transfers.size, 0, 'no money moved');
  t.like(await db('commissions').where('id', commission.id).first(), { status: 'payable', payout_id: null });

  // The developer: the run's page, the creator's page and the payouts CSV.
  const run = await page(`/dashboard/wallet/payouts/${runId}`);
  t.regex(run.text, /data-status="returned">/);
  t.regex(run.text, RETURNED);
  t.false(/data-status="(paid|sending)"/.test(run.text));
  const creatorPage = await page(`/dashboard/creators/${creatorId}`);
  t.regex(creatorPage.text, RETURNED);
  for (const csvPath of [`/dashboard/creators/${creatorId}?format=csv`, `/dashboard/wallet/payouts?q=${runId}&format=csv`]) {
    const [header, ...rows] = parseCsv((await page(csvPath)).text);
    t.is(header!.at(-1), 'Status');
    t.deepEqual(
      rows.map((r) => [r.includes(runId), r.at(-1)!.replace(/: Your destination[^)]*/, '')]),
      [[true, 'returned: nothing was paid (Stripe refused the transfer)']],
      csvPath,
    );
  }

  // The creator: the campaign page's payouts, the statement and its CSV.
  const email = (await db('creators').where('id', creatorId).first('email')).email as string;
  const creator = await signInCreator(h().baseUrl, db, email);
  const portal = (path: string) => creator.browser.fetch(`${h().baseUrl}/dashboard/creator${path}`);
  const campaign = await portal(`/campaigns/${seed.campaign_id}`);
  t.regex(
    campaign.text,
    /<td data-status="returned"><span class="badge bad" data-state="returned">returned<\/span>: nothing was paid \(Stripe refused/,
  );
  const statement = await portal(`/payouts/${payout.id}`);
  t.is(statement.status, 200);
  t.regex(statement.text, /id="statement-returned"[^>]*>This payout was returned: nothing was paid \(Stripe refused/);
  t.regex(statement.text, /Net \(returned: not paid\)/);
  t.regex(statement.text, /id="statement-status" data-status="returned">/);
  t.false(statement.text.includes('Net paid to you'));
  const rows = parseCsv((await portal(`/payouts/${payout.id}/statement.csv`)).text);
  t.like(rows.at(-1), { 0: 'Status', 5: 'returned' });
  t.regex(rows.at(-1)![3]!, RETURNED);
  t.is(rows.at(-2)![0], 'Net not paid');
  t.deepEqual(
    rows.slice(1, -2).map((r) => [r[0], r[5]]),
    [['Commission', 'returned']],
    'the line it held, never paid',
  );

  // The operator: a repeat of the run id answers the outcome, in JSON and in words.
  const env = cliEnv({ DATABASE_URL: h().database.url });
  const json = JSON.parse((await runSvc(['payouts', 'run', '--org', seed.org_id, '--run-id', runId, '--json'], env)).stdout);
  t.like(json, { already_run: true, payouts: [{ payout_id: payout.id, status: 'returned' }] });
  t.regex(json.payouts[0].reason, /^Stripe refused the transfer: /);
  t.is(json.payouts[0].net_usd, Math.round(commission.commission_micros / 10_000) / 100);
  const words = (await runSvc(['payouts', 'run', '--org', seed.org_id, '--run-id', runId], env)).stdout;
  t.regex(words, RETURNED);
  t.false(/: (paid|sending)\n/.test(words));
  await assertExactBooks(t, db, seed.org_id);
});
