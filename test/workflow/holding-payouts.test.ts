// Holding period, clawbacks and payouts end to end, on the run's Temporal dev server with the real worker and
// PostgreSQL (the time-skipping server cannot deliver update results): a holding-period day lasts one second here
// (HOLDING_PERIOD_DAY_MS), so a commission is released by its conversion workflow's timer seconds after it was
// earned; payouts run through the real `svc payouts run` process and through the same domain function.
import test from 'ava';
import { fundUnfundedCommissions } from '../../db/commissions.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { conversionWorkflowId } from '../../workflows/conversion-messages.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { ingest } from '../helpers/conversion-client.js';
import { assertExactBooks, commissionsOf, conversionByKey } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const DAY_MS = 1000;
const h = useHarness(test, { api: false, env: { HOLDING_PERIOD_DAY_MS: String(DAY_MS) } });

/** An account of its own (payout runs are per organization) whose campaign holds commissions `days` (seconds here). */
async function account(days: number): Promise<SeededApp> {
  const seeded = await seedApp(h().db);
  await connectTestAccount(h().db, seeded.creator_id);
  await h().db('campaigns').where('id', seeded.campaign_id).update({ holding_period_days: days });
  return seeded;
}

const earnOf = async (conversionId: string) => (await commissionsOf(h().db, conversionId)).filter((c) => c.kind === 'earn');
const statusOf = async (commissionId: string): Promise<string> =>
  (await h().db('commissions').where('id', commissionId).first()).status as string;
const ledgerCount = async (orgId: string) =>
  Number((await h().db('wallet_ledger').where('org_id', orgId).count<{ count: string }[]>('* as count'))[0]!.count);

async function svcPayouts(args: string[]) {
  const res = await runSvc(['payouts', 'run', ...args, '--json'], cliEnv({ DATABASE_URL: h().database.url }));
  if (res.code !== 0) throw new Error(`svc payouts run failed (${res.code}): ${res.stderr}`);
  return JSON.parse(res.stdout) as Awaited<ReturnType<typeof runPayoutRun>>;
}

test(
  'released after its holding period, paid out by the CLI once per ' +
    'run id; a refund after payout is a clawback netted from the next payout',
  async (t) => {
    const { temporal, taskQueue, db } = h();
    const acct = await account(2);
    const sub = subscription('hold-paid', acct.creator_code);
    const first = sub('initial_purchase');
    const earned = Date.now();
    t.falsy((await ingest(temporal, taskQueue, acct.app_id, first)).error);
    const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
    const [commission] = await earnOf(conversion.id);
    t.is(commission.status, 'reserved', 'held first');
    t.true(
      new Date(commission.payable_at).getTime() - new Date(commission.created_at).getTime() >= 2 * DAY_MS - 5,
      'payable two (short) days after it was earned',
    );
    await assertExactBooks(t, db, acct.org_id);

    // Nothing is payable during the holding period: a payout run now pays nothing.
    t.deepEqual((await runPayoutRun({ db }, { orgId: acct.org_id, runId: 'early', dryRun: true })).payouts, []);

    await waitFor(async () => (await statusOf(commission.id)) === 'payable', 'the release', 20_000);
    t.true(Date.now() - earned >= 2 * DAY_MS, 'not released before its holding period ended');
    await assertExactBooks(t, db, acct.org_id);

    // A dry run prints what it would pay and writes nothing.
    const before = await ledgerCount(acct.org_id);
    const dry = await svcPayouts(['--org', acct.org_id, '--run-id', 'first', '--dry-run']);
    t.like(dry, {
      dry_run: true,
      already_run: false,
      totals: { gross_micros: commission.commission_micros, net_micros: commission.commission_micros },
    });
    t.is(await statusOf(commission.id), 'payable');
    t.is(await ledgerCount(acct.org_id), before);
    t.is(await db('payout_runs').where('id', 'first').first(), undefined);

    const paid = await svcPayouts(['--org', acct.org_id, '--run-id', 'first']);
    t.like(paid, { run_id: 'first', dry_run: false, already_run: false });
    t.is(paid.payouts.length, 1);
    t.like(paid.payouts[0], {
      creator_id: acct.creator_id,
      commission_count: 1,
      gross_micros: commission.commission_micros,
      fees_micros: commission.platform_fee_micros,
      clawbacks_netted_micros: 0,
      net_micros: commission.commission_micros,
    });
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'paid', payout_id: paid.payouts[0]!.payout_id });
    const payoutEntry = await db('wallet_ledger').where({ commission_id: commission.id, entry_type: 'payout' }).first();
    t.is(payoutEntry.balance_delta_micros, -(commission.commission_micros + commission.platform_fee_micros));
    t.is(payoutEntry.reserved_delta_micros, -(commission.commission_micros + commission.platform_fee_micros));
    await assertExactBooks(t, db, acct.org_id);

    // The same run id again pays nothing twice (real process and domain function alike).
    const entries = await ledgerCount(acct.org_id);
    const again = await svcPayouts(['--org', acct.org_id, '--run-id', 'first']);
    t.like(again, { already_run: true, totals: paid.totals });
    t.like(await runPayoutRun({ db }, { orgId: acct.org_id, runId: 'first' }), { already_run: true });
    t.is(await ledgerCount(acct.org_id), entries);
    t.is((await db('payouts').where('run_id', 'first')).length, 1);

    // A refund after the payout: the paid commission stays paid; the creator owes its commission back.
    t.falsy((await ingest(temporal, taskQueue, acct.app_id, sub('refund', { transaction_id: first.event.transaction_id }))).error);
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'paid' });
    t.truthy((await db('commissions').where('id', commission.id).first()).reversed_at);
    const clawback = await db('clawbacks').where('commission_id', commission.id).first();
    t.like(clawback, { creator_id: acct.creator_id, amount_micros: commission.commission_micros, recovered_micros: 0 });
    await assertExactBooks(t, db, acct.org_id);

    // The next paid period earns, is released, and the next payout nets the clawback from it.
    t.falsy((await ingest(temporal, taskQueue, acct.app_id, sub('renewal'))).error);
    const renewal = (await earnOf(conversion.id)).find((c) => c.id !== commission.id)!;
    await waitFor(async () => (await statusOf(renewal.id)) === 'payable', "the renewal's release", 20_000);
    const balanceBefore = (await db('wallet_ledger').where('org_id', acct.org_id).orderBy('id', 'desc').first())
      .balance_after_micros as number;
    const next = await runPayoutRun({ db }, { orgId: acct.org_id, runId: 'second', createdBy: 'test' });
    const netted = Math.min(commission.commission_micros, renewal.commission_micros);
    t.like(next.payouts[0], {
      gross_micros: renewal.commission_micros,
      clawbacks_netted_micros: netted,
      net_micros: renewal.commission_micros - netted,
    });
    t.like(await db('clawbacks').where('id', clawback.id).first(), { recovered_micros: netted });
    const clawbackEntry = await db('wallet_ledger').where({ org_id: acct.org_id, entry_type: 'clawback' }).first();
    t.like(clawbackEntry, { balance_delta_micros: netted, reserved_delta_micros: 0, external_ref: next.payouts[0]!.payout_id });
    const balanceAfter = (await db('wallet_ledger').where('org_id', acct.org_id).orderBy('id', 'desc').first())
      .balance_after_micros as number;
    t.is(
      balanceBefore - balanceAfter,
      renewal.commission_micros - netted + renewal.platform_fee_micros,
      'only the net and the fee left the wallet',
    );
    await assertExactBooks(t, db, acct.org_id);
  },
);

test('a refund inside the holding period reverses the commission and nothing becomes payable; the conversion then closes', async (t) => {
  const { temporal, taskQueue, db } = h();
  const acct = await account(2);
  const sub = subscription('hold-refund', acct.creator_code);
  const first = sub('initial_purchase');
  const opts = { closeEndedAfter: '1 second' };
  await ingest(temporal, taskQueue, acct.app_id, first, opts);
  const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
  const [commission] = await earnOf(conversion.id);
  await ingest(temporal, taskQueue, acct.app_id, sub('refund', { transaction_id: first.event.transaction_id }), opts);
  t.like(await db('commissions').where('id', commission.id).first(), { status: 'reversed' });
  await assertExactBooks(t, db, acct.org_id);
  const handle = temporal.workflow.getHandle(conversionWorkflowId(acct.app_id, first.event.original_transaction_id));
  t.like(await handle.result(), { status: 'refunded' }, 'nothing held: the refunded conversion closes after its quiet second');
  await new Promise((r) => setTimeout(r, 2 * DAY_MS));
  t.is(await statusOf(commission.id), 'reversed', 'still reversed after the holding period');
  t.is(await db('clawbacks').where('commission_id', commission.id).first(), undefined);
  t.deepEqual((await runPayoutRun({ db }, { orgId: acct.org_id, runId: 'nothing' })).payouts, []);
  await assertExactBooks(t, db, acct.org_id);
});

test(
  'an ended conversion holding a commission stays open until the ' +
    'release; a refund of a payable commission is netted in the same payout',
  async (t) => {
    const { temporal, taskQueue, db } = h();
    const acct = await account(3);
    const sub = subscription('hold-open', acct.creator_code);
    const first = sub('initial_purchase');
    const opts = { closeEndedAfter: '1 second' };
    await ingest(temporal, taskQueue, acct.app_id, first, opts);
    await ingest(temporal, taskQueue, acct.app_id, sub('expiration'), opts);
    const handle = temporal.workflow.getHandle(conversionWorkflowId(acct.app_id, first.event.original_transaction_id));
    const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
    const [commission] = await earnOf(conversion.id);
    await new Promise((r) => setTimeout(r, 1500));
    t.is(
      (await handle.describe()).status.name,
      'RUNNING',
      'churned and quiet for longer than closeEndedAfter, but still holding a commission',
    );
    t.is(await statusOf(commission.id), 'reserved');
    t.like(await handle.result(), { status: 'churned' }, 'closes once the commission is released and the quiet period passed');
    t.is(await statusOf(commission.id), 'payable');

    // Refunded after its release but before any payout: a clawback; the payout pays it and nets the clawback (net 0).
    await ingest(temporal, taskQueue, acct.app_id, sub('refund', { transaction_id: first.event.transaction_id }), opts);
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'payable' });
    await assertExactBooks(t, db, acct.org_id);
    const run = await runPayoutRun({ db }, { orgId: acct.org_id, runId: 'netted' });
    t.like(run.payouts[0], {
      gross_micros: commission.commission_micros,
      clawbacks_netted_micros: commission.commission_micros,
      net_micros: 0,
    });
    t.like(await db('clawbacks').where('commission_id', commission.id).first(), { recovered_micros: commission.commission_micros });
    await assertExactBooks(t, db, acct.org_id);
  },
);

test('a refund racing a payout run: the organization lock orders them, and either order leaves exact books and one clawback', async (t) => {
  const { temporal, taskQueue, db } = h();
  const acct = await account(1);
  const sub = subscription('hold-race', acct.creator_code);
  const first = sub('initial_purchase');
  await ingest(temporal, taskQueue, acct.app_id, first);
  const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
  const [commission] = await earnOf(conversion.id);
  await waitFor(async () => (await statusOf(commission.id)) === 'payable', 'the release', 20_000);
  const [run] = await Promise.all([
    runPayoutRun({ db }, { orgId: acct.org_id, runId: 'race' }),
    ingest(temporal, taskQueue, acct.app_id, sub('refund', { transaction_id: first.event.transaction_id })),
  ]);
  t.is(await statusOf(commission.id), 'paid', 'paid by the run either way');
  const clawback = await db('clawbacks').where('commission_id', commission.id).first();
  t.is(clawback.amount_micros, commission.commission_micros, 'one clawback either way');
  // Refund first: the run netted it; payout first: it waits for the next run.
  t.is(run.payouts[0]!.clawbacks_netted_micros, clawback.recovered_micros);
  t.true([0, commission.commission_micros].includes(clawback.recovered_micros as number));
  await assertExactBooks(t, db, acct.org_id);
});

test('an unfunded commission past its holding period is released after a top-up funds it (looked at again each holding day)', async (t) => {
  const { temporal, taskQueue, db } = h();
  const acct = await seedApp(db, { walletUsd: 0 });
  await db('campaigns').where('id', acct.campaign_id).update({ holding_period_days: 1 });
  const sub = subscription('hold-unfunded', acct.creator_code);
  const first = sub('initial_purchase');
  t.is((await ingest(temporal, taskQueue, acct.app_id, first)).error, 'insufficient wallet balance');
  const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
  const [commission] = await earnOf(conversion.id);
  await new Promise((r) => setTimeout(r, 1.5 * DAY_MS));
  t.is(await statusOf(commission.id), 'unfunded', 'nothing to release while unfunded');
  await db.transaction(async (trx) => {
    await appendLedgerEntry(trx, {
      orgId: acct.org_id,
      entryType: 'topup',
      balanceDeltaMicros: 100_000_000,
      reservedDeltaMicros: 0,
      idempotencyKey: `topup:test:${acct.org_id}`,
      memo: 'test',
    });
    t.is(await fundUnfundedCommissions(trx, acct.org_id), 1);
  });
  t.is(await statusOf(commission.id), 'reserved');
  await waitFor(async () => (await statusOf(commission.id)) === 'payable', 'the release after funding', 20_000);
  await assertExactBooks(t, db, acct.org_id);
});
