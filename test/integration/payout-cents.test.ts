// Payouts true to the cent, through the Stripe stub (docs/wallet-and-payouts.md "Cents"): two commissions of 25 % of
// $39.99 are $10.00 and $1.00 of fee each, paid in two runs whose transfers are exactly 1,000 cents; a transfer
// reversed after it was sent, a run returned for want of funds, a refund after payout netted by the next run: after
// each the three identities of db/wallet-ledger.ts are empty and every amount is whole cents. The stub keeps the
// platform's balance as Stripe would (a top-up less Stripe's processing fee in, each transfer out, a reversal back),
// and the daily balance check explains all of the gap: platform fees of payouts not returned less Stripe's fees.
// The creator's statement lines add up to its totals as printed; its CSV prints 10.00.
import test, { type ExecutionContext } from 'ava';
import { totalWalletBalancesMicros } from '../../db/wallet-ledger.js';
import { startPayoutRun } from '../../workflow-clients/payout-runs.js';
import type { BalanceCheck } from '../../workflows/payout-run-messages.js';
import { assertLedgerIdentity } from '../helpers/books.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { request } from '../helpers/http.js';
import { makePayableCommission } from '../helpers/payable.js';
import { connectReady as connectReadyThroughStub, mountConnect } from '../helpers/payouts.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { stripeStubEnv, useStripeStub } from '../helpers/stripe-stub-harness.js';
import { useHarness } from '../helpers/harness.js';

const CONNECT_SECRET = 'whsec_test_cents_connect';
const h = useHarness(test, {
  env: stripeStubEnv({
    STRIPE_WEBHOOK_SECRET: 'whsec_test_platform',
    STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    HOLDING_PERIOD_DAY_MS: '500',
    PAYOUT_FUNDS_RETRY_SECONDS: '3600',
    TRUST_PROXY: 'true',
  }),
  mount: mountConnect,
});
const stub = useStripeStub(test, h);

const deliver = (event: { payload: string; signature: string }) =>
  request(h().baseUrl, 'POST', '/api/webhooks/stripe', {
    rawBody: event.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
  });

/** A top-up paid through Checkout: Stripe keeps its processing fee (2.9 % + 30 cents) of the charge. */
async function topUp(a: SeededApp, cents: number): Promise<number> {
  const fee = Math.round(cents * 0.029) + 30;
  const [payment] = await h()
    .db('payments')
    .insert({ org_id: a.org_id, provider: 'stripe', amount_micros: cents * 10_000 })
    .returning('id');
  stub().connect.charge(cents, fee);
  const session = {
    id: `cs_${payment.id}`,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    currency: 'usd',
    amount_total: cents,
    metadata: { payment_id: payment.id },
    payment_intent: `pi_${payment.id}`,
  };
  const res = await deliver(stub().signedObjectEvent('checkout.session.completed', session));
  if (res.body?.credited !== true) throw new Error(`top-up not credited: ${res.text}`);
  return fee;
}

async function run(a: SeededApp, runId: string) {
  await startPayoutRun({ client: h().temporal, taskQueue: h().taskQueue }, runId, { orgId: a.org_id, createdBy: 'test' });
  await h().temporal.workflow.getHandle(`payout-run/${runId}`).result();
  return h().db('payouts').where('run_id', runId).first();
}

/** Every amount of the organization is whole cents, and the three identities are empty. */
async function books(t: ExecutionContext, a: SeededApp, when: string) {
  const { db } = h();
  const subCent = [
    ...(await db('commissions')
      .where('org_id', a.org_id)
      .whereRaw('(commission_micros % 10000 <> 0 or platform_fee_micros % 10000 <> 0)')
      .pluck('id')),
    ...(await db('payouts')
      .where('org_id', a.org_id)
      .whereRaw(
        '(gross_micros % 10000 <> 0 or fees_micros % 10000 <> 0 or net_micros % 10000 <> 0 or clawbacks_netted_micros % 10000 <> 0)',
      )
      .pluck('id')),
    ...(await db('clawbacks')
      .where('org_id', a.org_id)
      .whereRaw('(amount_micros % 10000 <> 0 or recovered_micros % 10000 <> 0)')
      .pluck('id')),
    ...(await db('wallet_ledger')
      .where('org_id', a.org_id)
      .whereRaw('(balance_delta_micros % 10000 <> 0 or reserved_delta_micros % 10000 <> 0)')
      .pluck('id')),
  ];
  t.deepEqual(subCent, [], `${when}: whole cents everywhere`);
  await assertLedgerIdentity(t, db);
}

const balanceCheck = (): Promise<BalanceCheck> =>
  h().temporal.workflow.execute('platformBalanceCheckWorkflow', {
    taskQueue: h().taskQueue,
    workflowId: `balance-check-${Date.now()}`,
    args: [],
  });

test.serial(
  'two commissions of 25 % of $39.99 in two runs, a reversal, a return ' +
    'and a netted refund: whole cents, books exact, the balance explained',
  async (t) => {
    const { db } = h();
    t.is(await totalWalletBalancesMicros(db), 0, 'a fresh database: the platform holds what the wallets hold, nothing');
    const a = await seedApp(db, { walletUsd: 0, commissionPercentage: 25 });
    const stripeFee = await topUp(a, 100_00);
    t.is(stripeFee, 320);
    await connectReadyThroughStub(h().baseUrl, db, stub(), CONNECT_SECRET, a.creator_id);
    const price = { price: 39.99, price_in_purchased_currency: 39.99 };

    const first = subscription(`cents-1-${a.org_id}`, a.creator_code);
    const c1 = await makePayableCommission(db, h().baseUrl, a, 'cents-1', { overrides: price, sub: first });
    t.like(c1, { commission_micros: 10_000_000, platform_fee_micros: 1_000_000 }, '25 % of $39.99 is $10.00, its fee $1.00');
    const p1 = await run(a, `cents-run1-${a.org_id}`);
    t.like(p1, { gross_micros: 10_000_000, fees_micros: 1_000_000, net_micros: 10_000_000, transfer_status: 'transferred' });
    t.is(stub().connect.transfers.get(p1.transfer_id)!.amount, 1_000, 'the transfer is the net in cents, exactly');
    await books(t, a, 'run 1');

    const c2 = await makePayableCommission(db, h().baseUrl, a, 'cents-2', { overrides: price });
    t.like(c2, { commission_micros: 10_000_000, platform_fee_micros: 1_000_000 });
    const p2 = await run(a, `cents-run2-${a.org_id}`);
    t.like(p2, { net_micros: 10_000_000, transfer_status: 'transferred' });
    t.is(stub().connect.transfers.get(p2.transfer_id)!.amount, Number(p2.net_micros) / 10_000);
    t.deepEqual(
      [...stub().connect.transfers.values()].map((tr) => tr.amount),
      [1_000, 1_000],
      'two transfers of exactly 1,000 cents',
    );
    await books(t, a, 'run 2');

    // Stripe reverses the second transfer after it was sent: the payout is returned, its line payable again.
    const reversed = await deliver(stub().signedObjectEvent('transfer.reversed', stub().connect.reverseTransfer(p2.transfer_id)));
    t.like(reversed.body, { handled: true, returned: true });
    t.like(await db('commissions').where('id', c2.id).first(), { status: 'payable', payout_id: null });
    await books(t, a, 'after the reversal');

    // A run refused for want of funds is returned whole.
    const available = stub().connect.balance.available;
    stub().connect.balance.available = 0;
    const p3 = await run(a, `cents-run3-${a.org_id}`);
    stub().connect.balance.available = available;
    t.like(p3, { transfer_status: 'returned', net_micros: 10_000_000 });
    await books(t, a, 'after the return');

    // The first purchase is refunded after its payout: $10.00 owed back, netted by the next run (with a third sale).
    const refunded = await sendWebhook(
      h().baseUrl,
      a.app_id,
      a.webhook_secret,
      first('refund', {
        transaction_id: (
          await db('purchase_events')
            .where('id', (await db('commissions').where('id', c1.id).first()).purchase_event_id)
            .first()
        ).transaction_id,
        price: -39.99,
        price_in_purchased_currency: -39.99,
      }),
    );
    t.is(refunded.status, 200, refunded.text);
    t.like(await db('clawbacks').where('commission_id', c1.id).first(), { amount_micros: 10_000_000, recovered_micros: 0 });
    await makePayableCommission(db, h().baseUrl, a, 'cents-3', { overrides: price });
    const p4 = await run(a, `cents-run4-${a.org_id}`);
    t.like(p4, { gross_micros: 20_000_000, fees_micros: 2_000_000, clawbacks_netted_micros: 10_000_000, net_micros: 10_000_000 });
    t.is(p4.transfer_status, 'transferred');
    t.is(stub().connect.transfers.get(p4.transfer_id)!.amount, 1_000);
    await books(t, a, 'after the netted refund');

    // The balance: 100.00 topped up (96.80 reached Stripe), 10.00 + 10.00 sent (one reversed back), wallet 77.00.
    const report = await balanceCheck();
    t.deepEqual(report, {
      checked: true,
      walletsMicros: 77_000_000,
      platformMicros: 76_800_000,
      gapMicros: -200_000,
      expectedMicros: -200_000,
      platformFeesMicros: 3_000_000,
      unsentPayoutsMicros: 0,
      processingFeesMicros: 3_200_000,
      unexplainedMicros: 0,
      mismatchedPayouts: [],
    });
    // A transfer whose cents differ from its net is named (Stripe's record changed behind our back).
    const tr = stub().connect.transfers.get(p4.transfer_id)!;
    tr.amount = 999;
    const named = await balanceCheck();
    tr.amount = 1_000;
    t.like(named, { checked: true, unexplainedMicros: 0 });
    t.deepEqual(named.checked && named.mismatchedPayouts, [{ payoutId: p4.id, netMicros: 10_000_000, transferredMicros: 9_990_000 }]);

    // The creator's statement of run 4: lines as printed add up to the totals as printed; the CSV prints two decimals.
    const creator = await db('creators').where('id', a.creator_id).first('email');
    const session = await signInCreator(h().baseUrl, db, creator.email);
    const page = await session.browser.fetch(`${h().baseUrl}/dashboard/creator/payouts/${p4.id}`);
    t.is(page.status, 200);
    const cents = (s: string) => Math.round(Number(s.replace(/[^0-9.]/g, '')) * 100) * (s.trim().startsWith('-') ? -1 : 1);
    // The amount cell, then (issue 38) the basis cell closing the row.
    const lines = [
      ...page.text.matchAll(/<tr data-kind="([^"]+)">[\s\S]*?<td>(-?\$[0-9.,]+ USD)<\/td>\s*<td class="basis">[^<]*<\/td>\s*<\/tr>/g),
    ].map((m) => [m[1], cents(m[2]!)] as const);
    t.deepEqual(lines, [
      ['Commission', 1_000],
      ['Commission', 1_000],
      ['Clawback', -1_000],
    ]);
    const net = /<td id="statement-net">([^<]+)<\/td>/.exec(page.text)![1]!;
    t.is(
      cents(net),
      lines.reduce((s, [, c]) => s + c, 0),
      'the lines add up to the net as printed',
    );
    const csv = await session.browser.fetch(`${h().baseUrl}/dashboard/creator/payouts/${p4.id}/statement.csv`);
    const amounts = csv.text
      .trim()
      .split('\r\n')
      .slice(1)
      .filter((row) => !row.startsWith('Status,')) // the payout's status row carries words, no amount
      .map((row) => row.split(',').at(-3)); // amount, state, then (issue 38) the basis
    t.deepEqual(amounts, ['10.00', '10.00', '10.00', '10.00'], 'two commissions, the clawback and the net, with two decimals');
  },
);
