// Payouts through Stripe Connect (a local stub speaking Stripe's wire format): a creator connects an Express account
// (a fresh single-use link per click; ready only when Stripe says so, through the signed Connect webhook); a run
// fired by the organization's Temporal schedule records its payouts in one transaction and sends one Transfer per
// payout (transfer_group = the run, idempotency key from the payout); the wallet page lists it; a transfer reversed
// by Stripe returns its lines to payable; redelivered webhooks change nothing; a payout waiting for available funds
// goes out once they are; a creator without a ready account or below the minimum is held over with the reason; a
// transfer Stripe refuses is returned to payable and told as returned.
import test from 'ava';
import { findPayoutRun } from '../../db/payout-history.js';
import { setPayoutSettings } from '../../db/payout-settings-writes.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { reconcilePayoutSchedule, startPayoutRun } from '../../workflow-clients/payout-runs.js';
import { payoutScheduleId } from '../../workflows/payout-run-messages.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { makePayableCommission } from '../helpers/payable.js';
import { connectReady as connectReadyThroughStub, CREATOR_HEADER, mountConnect, payoutIn, payoutsOf } from '../helpers/payouts.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';

const SECRET = 'sk_test_stub_secret_key';
const WEBHOOK_SECRET = 'whsec_test_platform';
const CONNECT_SECRET = 'whsec_test_connect';
let stub: StripeStub;
const stubReady = startStripeStub(SECRET, WEBHOOK_SECRET).then((s) => {
  stub = s;
});
const h = useHarness(test, {
  env: {
    STRIPE_SECRET_KEY: SECRET,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    STRIPE_API_ROOT: 'http://127.0.0.1:9/',
    HOLDING_PERIOD_DAY_MS: '500',
    PAYOUT_FUNDS_RETRY_SECONDS: '3600',
  },
  mount: mountConnect,
});

test.before(async () => {
  await h.ready();
  await stubReady;
  h().config.STRIPE_API_ROOT = stub.url;
});
test.after.always(async () => {
  await stub?.close();
});

const asCreator = (creatorId: string) => ({ [CREATOR_HEADER]: creatorId });
const deliver = (path: string, event: { payload: string; signature: string }) =>
  request(h().baseUrl, 'POST', path, {
    rawBody: event.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
  });
const accountOf = async (creatorId: string) => h().db('payout_accounts').where('creator_id', creatorId).first();
const ledgerCount = async (orgId: string) =>
  Number((await h().db('wallet_ledger').where('org_id', orgId).count<{ count: string }[]>('* as count'))[0]!.count);

const connectReady = (creatorId: string) => connectReadyThroughStub(h().baseUrl, h().db, stub, CONNECT_SECRET, creatorId);

async function payable(tag: string): Promise<{ app: SeededApp; commission: Awaited<ReturnType<typeof makePayableCommission>> }> {
  const app = await seedApp(h().db, { walletUsd: 500 });
  return { app, commission: await makePayableCommission(h().db, h().baseUrl, app, tag) };
}

test.serial('connecting: an Express account once, a fresh single-use link per click, ready only when Stripe says so', async (t) => {
  const app = await seedApp(h().db);
  const first = await request(h().baseUrl, 'POST', '/creator/payouts/connect', {
    body: { country: 'de' },
    headers: asCreator(app.creator_id),
  });
  t.is(first.status, 303, first.text);
  const row = await accountOf(app.creator_id);
  const account = stub.connect.accounts.get(row.external_id)!;
  t.like(account, {
    type: 'express',
    country: 'DE',
    capabilities: { transfers: 'inactive' },
    tos_acceptance: { service_agreement: 'recipient' },
    metadata: { creator_id: app.creator_id },
  });
  const link = stub.connect.accountLinks.at(-1)!;
  t.is(first.headers.get('location'), link.url);
  t.like(link, {
    account: account.id,
    type: 'account_onboarding',
    return_url: `${h().baseUrl}/creator/payouts/return`,
    refresh_url: `${h().baseUrl}/creator/payouts/refresh`,
  });

  const again = await request(h().baseUrl, 'GET', '/creator/payouts/refresh', { headers: asCreator(app.creator_id) });
  t.is(again.status, 303);
  t.not(again.headers.get('location'), link.url, 'a new link each time: they are single use');
  t.is([...stub.connect.accounts.values()].filter((a) => a.metadata.creator_id === app.creator_id).length, 1, 'one account per creator');

  const back = await request(h().baseUrl, 'GET', '/creator/payouts/return', { headers: asCreator(app.creator_id) });
  t.is(back.status, 303);
  t.regex(
    back.headers.get('location')!,
    /\/dashboard\/creator\?payouts=incomplete$/,
    'returning from onboarding does not make the account ready',
  );
  const status = await request(h().baseUrl, 'GET', '/creator/payouts/status', { headers: asCreator(app.creator_id) });
  t.like(status.body, { connected: true, ready: false, country: 'DE' });
  t.true(status.body.problems.some((p: string) => /transfers are not active/.test(p)));

  const forged = stub.signedObjectEvent('account.updated', stub.connect.completeOnboarding(account.id), 'whsec_wrong', account.id);
  t.is((await deliver('/api/webhooks/stripe-connect', forged)).status, 400);
  t.false((await accountOf(app.creator_id)).transfers_active, 'a forged event changes nothing');
  const updated = stub.signedObjectEvent('account.updated', account, CONNECT_SECRET, account.id);
  t.like((await deliver('/api/webhooks/stripe-connect', updated)).body, { handled: true });
  t.like(await accountOf(app.creator_id), { transfers_active: true, payouts_enabled: true, requirements_due: [], disabled_reason: null });
  t.like((await deliver('/api/webhooks/stripe-connect', updated)).body, { duplicate: true }, 'a redelivery is recognised by its event id');

  const bank = stub.signedObjectEvent(
    'payout.failed',
    {
      id: 'po_1',
      object: 'payout',
      amount: 1234,
      currency: 'usd',
      status: 'failed',
      failure_message: 'account closed',
      arrival_date: 1_800_000_000,
    },
    CONNECT_SECRET,
    account.id,
  );
  t.like((await deliver('/api/webhooks/stripe-connect', bank)).body, { handled: true });
  t.like(await h().db('creator_bank_payouts').where('id', 'po_1').first(), {
    creator_id: app.creator_id,
    status: 'failed',
    failure_message: 'account closed',
  });

  const bad = await request(h().baseUrl, 'POST', '/creator/payouts/connect', {
    body: { country: 'Germany' },
    headers: asCreator(app.creator_id),
  });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['body', 'country']);
  t.is((await request(h().baseUrl, 'POST', '/creator/payouts/connect', { body: {} })).status, 401, 'no creator, no account');
});

test.serial(
  'a scheduled run pays one Transfer per payout; the run lists it; a reversal returns the lines; redelivery changes nothing',
  async (t) => {
    const { db } = h();
    const { app, commission } = await payable('sched-pay');
    await connectReady(app.creator_id);
    stub.connect.balance.available = 1_000_000;
    const before = await getWalletTotals(db, app.org_id);

    await setPayoutSettings(db, app.org_id, { minimumPayoutMicros: 0, periodHours: 24 }, 'test');
    const deps = { db, client: h().temporal, taskQueue: h().taskQueue, catchupHours: 24 };
    t.is(await reconcilePayoutSchedule(deps, app.org_id), 'created');
    t.is(await reconcilePayoutSchedule(deps, app.org_id), 'updated', 'create-or-update at every worker start');
    const schedule = h().temporal.schedule.getHandle(payoutScheduleId(app.org_id));
    t.teardown(() => schedule.delete().catch(() => undefined));
    const described = await schedule.describe();
    t.is(described.policies.overlap, 'SKIP');
    await schedule.trigger();

    const payout = await payoutIn(db, app.org_id, app.creator_id, 'transferred');
    t.regex(payout.run_id, new RegExp(`^sched-${app.org_id}-`), 'the run id comes from the scheduled time');
    const transfer = stub.connect.transfers.get(payout.transfer_id!)!;
    t.like(transfer, {
      amount: Number(payout.net_micros) / 10_000, // exactly: the net is whole cents
      currency: 'usd',
      transfer_group: payout.run_id,
      metadata: { payout_id: payout.id },
    });
    t.is(transfer.destination, (await accountOf(app.creator_id)).external_id);
    t.deepEqual(
      stub.connect.transferKeys.filter((k) => k === `payout:${payout.id}`),
      [`payout:${payout.id}`],
    );
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'paid', payout_id: payout.id });
    const run = await findPayoutRun(db, app.org_id, payout.run_id);
    t.like(run!.payouts[0], { creator_id: app.creator_id, transfer_status: 'transferred', transfer_id: transfer.id });
    const after = await getWalletTotals(db, app.org_id);
    t.is(after.balanceMicros, before.balanceMicros - commission.commission_micros - commission.platform_fee_micros);
    await assertExactBooks(t, db, app.org_id);

    // The same run again (a re-fire of the same scheduled time) pays nobody twice.
    await startPayoutRun({ client: h().temporal, taskQueue: h().taskQueue }, payout.run_id, { orgId: app.org_id, createdBy: 'test' });
    await h().temporal.workflow.getHandle(`payout-run/${payout.run_id}`).result();
    t.is(stub.connect.transfers.size, [...stub.connect.transfers.values()].length);
    t.is([...stub.connect.transfers.values()].filter((tr) => tr.metadata.payout_id === payout.id).length, 1);

    const told = async () => (await db('creator_digest_items').where('payout_id', payout.id).orderBy('created_at')).map((i) => i.kind);
    t.deepEqual(await told(), ['payout_sent'], 'the creator is told once the transfer is recorded');
    const reversed = stub.signedObjectEvent('transfer.reversed', stub.connect.reverseTransfer(transfer.id));
    t.like((await deliver('/api/webhooks/stripe', reversed)).body, { handled: true, payout_id: payout.id, returned: true });
    t.like(await db('payouts').where('id', payout.id).first(), { transfer_status: 'returned', failure: 'the transfer was reversed' });
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'payable', payout_id: null });
    t.deepEqual(await told(), ['payout_sent', 'payout_reversed'], 'sent, then a distinct reversed item: never a silent contradiction');
    t.deepEqual(
      await getWalletTotals(db, app.org_id),
      before,
      'the reversed money is back in the wallet, reserved for the payable commission',
    );
    const entries = await ledgerCount(app.org_id);
    t.like((await deliver('/api/webhooks/stripe', reversed)).body, { duplicate: true });
    t.is(await ledgerCount(app.org_id), entries, 'a redelivered reversal changes nothing');
    await assertExactBooks(t, db, app.org_id);
  },
);

test.serial(
  "a top-up's availability date is stored; a payout waits for available funds and goes out once they are available",
  async (t) => {
    const { db } = h();
    const { app } = await payable('wait-funds');
    await connectReady(app.creator_id);
    // A top-up paid through Checkout: Stripe makes its funds available a few seconds from now (days, in life).
    const [topup] = await db('payments').insert({ org_id: app.org_id, provider: 'stripe', amount_micros: 10_000_000 }).returning('id');
    stub.connect.fundsAvailableOn = Math.floor(Date.now() / 1000) + 5;
    const session = {
      id: 'cs_wait',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      currency: 'usd',
      amount_total: 1000,
      metadata: { payment_id: topup.id },
      payment_intent: 'pi_wait',
    };
    t.like((await deliver('/api/webhooks/stripe', stub.signedObjectEvent('checkout.session.completed', session))).body, { credited: true });
    const availableAt = (await db('payments').where('id', topup.id).first()).available_at as Date;
    t.is(availableAt.getTime(), stub.connect.fundsAvailableOn * 1000);
    stub.connect.balance.available = 0;
    stub.connect.balance.pending = 1_000_000;
    await startPayoutRun({ client: h().temporal, taskQueue: h().taskQueue }, `wait-${app.org_id}`, {
      orgId: app.org_id,
      createdBy: 'test',
    });
    const pending = await payoutIn(db, app.org_id, app.creator_id, 'transfer_pending');
    await new Promise((r) => setTimeout(r, 2000));
    t.is(
      (await db('payouts').where('id', pending.id).first()).transfer_status,
      'transfer_pending',
      'nothing is sent while the funds are pending',
    );
    t.false([...stub.connect.transfers.values()].some((tr) => tr.metadata.payout_id === pending.id));
    stub.connect.balance.available = 1_000_000;
    stub.connect.balance.pending = 0;
    // The payout wakes at the top-up's availability date, not after PAYOUT_FUNDS_RETRY_SECONDS (an hour here).
    const sent = await payoutIn(db, app.org_id, app.creator_id, 'transferred', 20_000);
    t.true(Date.now() >= availableAt.getTime());
    t.is([...stub.connect.transfers.values()].filter((tr) => tr.metadata.payout_id === sent.id).length, 1);
    await assertExactBooks(t, db, app.org_id);
  },
);

test.serial(
  'held over (with the reason) without a ready account or below the ' +
    'minimum; returned when Stripe refuses or funds lack; lines payable again',
  async (t) => {
    const { db } = h();
    const { app, commission } = await payable('no-account');
    stub.connect.balance.available = 1_000_000;
    const before = await getWalletTotals(db, app.org_id);
    const temporal = { client: h().temporal, taskQueue: h().taskQueue };
    const runOf = async (runId: string) => {
      await startPayoutRun(temporal, runId, { orgId: app.org_id, createdBy: 'test' });
      return h().temporal.workflow.getHandle(`payout-run/${runId}`).result();
    };
    const heldBy = async (runId: string) => (await findPayoutRun(db, app.org_id, runId))!.held_over;

    t.deepEqual((await runOf(`held-${app.org_id}`)).payouts, [], 'a creator without a payout account is held over');
    t.deepEqual(await payoutsOf(db, app.org_id), []);
    t.like(await heldBy(`held-${app.org_id}`), [
      { creator_id: app.creator_id, payable_micros: commission.commission_micros, reason: 'no payout account connected' },
    ]);
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'payable' });

    // Connecting started, onboarding not finished: not ready, held over with what is missing.
    const started = await request(h().baseUrl, 'POST', '/creator/payouts/connect', {
      body: { country: 'US' },
      headers: asCreator(app.creator_id),
    });
    t.is(started.status, 303);
    t.deepEqual((await runOf(`unready-${app.org_id}`)).payouts, []);
    t.regex((await heldBy(`unready-${app.org_id}`))[0]!.reason, /^payout account not ready: transfers are not active yet/);

    await connectReady(app.creator_id);
    await setPayoutSettings(db, app.org_id, { minimumPayoutMicros: commission.commission_micros + 10_000, periodHours: null }, 'test');
    t.deepEqual((await runOf(`small-${app.org_id}`)).payouts, [], 'below the minimum payout: held over');
    t.regex((await heldBy(`small-${app.org_id}`))[0]!.reason, /^below the organization's minimum payout of \$\d+\.\d\d USD$/);
    await setPayoutSettings(db, app.org_id, { minimumPayoutMicros: 0, periodHours: null }, 'test');

    // Stripe refuses the transfer (the account lost its transfers capability before account.updated told us).
    const account = stub.connect.accounts.get((await accountOf(app.creator_id)).external_id)!;
    account.capabilities.transfers = 'inactive';
    const refused = await runOf(`refused-${app.org_id}`);
    t.like(refused.payouts[0]!.step, { status: 'returned' });
    t.regex(refused.payouts[0]!.step.reason ?? '', /^Stripe refused the transfer: Your destination account needs/);
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'payable', payout_id: null });
    const refusedPayout = await db('payouts').where('run_id', `refused-${app.org_id}`).first('id');
    t.deepEqual(
      (await db('creator_digest_items').where('payout_id', refusedPayout.id)).map((i) => i.kind),
      ['payout_failed'],
      'returned before any transfer: the creator is told it was returned, never that it was sent',
    );
    t.deepEqual(await getWalletTotals(db, app.org_id), before);
    account.capabilities.transfers = 'active';

    stub.connect.balance.available = 0;
    stub.connect.balance.pending = 0;
    const broke = await runOf(`broke-${app.org_id}`);
    t.like(broke.payouts[0]!.step, { status: 'returned', reason: 'insufficient available funds in the platform balance' });
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'payable', payout_id: null });
    t.deepEqual(await getWalletTotals(db, app.org_id), before);
    await assertExactBooks(t, db, app.org_id);
  },
);

test.serial('the daily balance check reports the gap between the platform balance and the sum of the wallets', async (t) => {
  const { db } = h();
  const summed = Number((await db('wallet_ledger').sum<{ total: string }[]>('balance_delta_micros as total'))[0]!.total);
  stub.connect.balance.available = 123_456;
  stub.connect.balance.pending = 1_000;
  const report = await h().temporal.workflow.execute('platformBalanceCheckWorkflow', {
    taskQueue: h().taskQueue,
    workflowId: `balance-check-${Date.now()}`,
    args: [],
  });
  t.like(report, { checked: true, walletsMicros: summed, platformMicros: 124_456 * 10_000, gapMicros: 124_456 * 10_000 - summed });
});
