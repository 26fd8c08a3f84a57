// Migration 0049 (whole cents): rows written with fractions of a cent, in every state the books know (reserved,
// payable, paid and transferred, reversed, partly refunded with a clawback outstanding, a clawback netted by a later
// payout, a returned payout, approved and paid bonus awards, unfunded), are seeded on the schema before it as the
// code of that version wrote them (a 25 % commission of $39.99 was $9.9975); after it every amount is whole cents,
// each rounded row has one `rounding` entry, and the three identities of db/wallet-ledger.ts are empty.
import test from 'ava';
import type { Knex } from 'knex';
import { migrateLatest, migrationConfig } from '../../runtime/db.js';
import { getWalletTotals, sumWalletLedger } from '../../db/wallet-ledger.js';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { assertLedgerIdentity } from '../helpers/books.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';

let tdb: TestDatabase;
test.before(async () => {
  tdb = await createTestDatabase();
  // Back to the schema before 0049 (undoing any later migration first), one migration at a time.
  for (let undone: string[] = []; !undone.some((f) => f.includes('0049_whole_cents'));) {
    [, undone] = (await tdb.db.migrate.down(migrationConfig)) as [number, string[]];
    if (undone.length === 0) throw new Error('0049_whole_cents was never applied');
  }
});
test.after.always(async () => {
  await tdb?.drop();
});

// 25 % of $39.99 and its 10 % fee, as computed before whole cents.
const C = 9_997_500;
const F = 999_750;

let n = 0;
async function earn(db: Knex, a: SeededApp, status: string, amounts: { c: number; f: number } = { c: C, f: F }) {
  n += 1;
  const [conversion] = await db('conversions')
    .insert({
      app_id: a.app_id,
      org_id: a.org_id,
      conversion_key: `cents-${a.app_id}-${n}`,
      kind: 'one_time',
      status: 'active',
    })
    .returning('id');
  const event = await purchaseEvent(db, a, conversion.id, 'NON_RENEWING_PURCHASE');
  const [row] = await db('commissions')
    .insert({
      conversion_id: conversion.id,
      purchase_event_id: event,
      app_id: a.app_id,
      org_id: a.org_id,
      campaign_id: a.campaign_id,
      creator_id: a.creator_id,
      kind: 'earn',
      revenue_usd_micros: 39_990_000,
      commission_micros: amounts.c,
      platform_fee_micros: amounts.f,
      commission_percentage: 25,
      platform_fee_percentage: 10,
      status,
      payable_at: new Date(),
    })
    .returning(['id', 'conversion_id']);
  if (status !== 'unfunded') await ledger(db, a, 'reserve', 0, amounts.c + amounts.f, { commissionId: row.id });
  return { id: row.id as string, conversionId: row.conversion_id as string, ...amounts };
}

async function purchaseEvent(db: Knex, a: SeededApp, conversionId: string, type: string): Promise<string> {
  n += 1;
  const [ev] = await db('purchase_events')
    .insert({ app_id: a.app_id, source: 'subprovider', event_type: type, event_timestamp_ms: Date.now() + n, conversion_id: conversionId })
    .returning('id');
  return ev.id;
}

const ledger = (
  db: Knex,
  a: SeededApp,
  type: 'reserve' | 'reversal' | 'payout' | 'clawback' | 'payout_return',
  balance: number,
  reserved: number,
  ids: { commissionId?: string; bonusAwardId?: string } = {},
) => {
  n += 1;
  return appendLedgerEntry(db, {
    orgId: a.org_id,
    entryType: type,
    balanceDeltaMicros: balance,
    reservedDeltaMicros: reserved,
    idempotencyKey: `seed:${n}`,
    ...ids,
    memo: 'seeded before 0049',
  });
};

/** A refund's reversal row of `c`/`f` of an earn (negative), with its clawback when the earn was released. */
async function reversal(db: Knex, a: SeededApp, e: { id: string; conversionId: string }, c: number, f: number, clawback: boolean) {
  const event = await purchaseEvent(db, a, e.conversionId, 'REFUND');
  await db('commissions').insert({
    conversion_id: e.conversionId,
    purchase_event_id: event,
    app_id: a.app_id,
    org_id: a.org_id,
    campaign_id: a.campaign_id,
    creator_id: a.creator_id,
    kind: 'reversal',
    reverses_commission_id: e.id,
    revenue_usd_micros: -1,
    commission_micros: -c,
    platform_fee_micros: -f,
    commission_percentage: 25,
    platform_fee_percentage: 10,
    status: 'reversed',
  });
  if (!clawback) return undefined;
  const [cb] = await db('clawbacks')
    .insert({ org_id: a.org_id, creator_id: a.creator_id, commission_id: e.id, refund_event_id: event, amount_micros: c })
    .returning('id');
  return cb.id as string;
}

async function payout(
  db: Knex,
  a: SeededApp,
  run: string,
  lines: { id: string; c: number; f: number }[],
  awards: { id: string; m: number }[],
  netted = 0,
) {
  await db('payout_runs').insert({ id: run, org_id: a.org_id }).onConflict('id').ignore();
  const gross = lines.reduce((s, l) => s + l.c, 0) + awards.reduce((s, w) => s + w.m, 0);
  const [p] = await db('payouts')
    .insert({
      run_id: run,
      org_id: a.org_id,
      creator_id: a.creator_id,
      commission_count: lines.length,
      award_count: awards.length,
      awards_micros: awards.reduce((s, w) => s + w.m, 0),
      gross_micros: gross,
      fees_micros: lines.reduce((s, l) => s + l.f, 0),
      clawbacks_netted_micros: netted,
      net_micros: gross - netted,
      transfer_status: 'transferred',
      transfer_id: `tr_${run}`,
    })
    .returning('id');
  for (const l of lines) {
    await db('commissions').where('id', l.id).update({ status: 'paid', payout_id: p.id, paid_at: new Date() });
    await ledger(db, a, 'payout', -(l.c + l.f), -(l.c + l.f), { commissionId: l.id });
  }
  for (const w of awards) {
    await db('bonus_awards').where('id', w.id).update({ status: 'paid', payout_id: p.id, paid_at: new Date() });
    await ledger(db, a, 'payout', -w.m, -w.m, { bonusAwardId: w.id });
  }
  return p.id as string;
}

async function award(db: Knex, a: SeededApp, threshold: number, micros: number) {
  const [rule] = await db('bonus_rules')
    .insert({ campaign_id: a.campaign_id, name: `Reach ${threshold}`, threshold_conversions: threshold, bonus_micros: micros })
    .returning('id');
  const [row] = await db('bonus_awards')
    .insert({
      bonus_rule_id: rule.id,
      campaign_id: a.campaign_id,
      creator_id: a.creator_id,
      org_id: a.org_id,
      amount_micros: micros,
      threshold_conversions: threshold,
      status: 'approved',
      reviewed_at: new Date(),
      reviewed_by: 'seed',
    })
    .returning('id');
  await ledger(db, a, 'reserve', 0, micros, { bonusAwardId: row.id });
  return { id: row.id as string, m: micros };
}

test.serial('sub-cent rows in every state are rounded to the cent with one rounding entry each; the books stay exact', async (t) => {
  const { db } = tdb;
  const a = await seedApp(db, { walletUsd: 1000 });

  const reserved = await earn(db, a, 'reserved');
  const payable = await earn(db, a, 'payable');
  await earn(db, a, 'unfunded');
  // Reversed inside the holding period: the reservation released.
  const reversedEarn = await earn(db, a, 'reserved');
  await reversal(db, a, reversedEarn, C, F, false);
  await db('commissions').where('id', reversedEarn.id).update({ status: 'reversed', reversed_at: new Date() });
  await ledger(db, a, 'reversal', 0, -(C + F), { commissionId: reversedEarn.id });
  // Partly refunded after its release: payable, a 50 % reversal and its clawback outstanding.
  const partly = await earn(db, a, 'payable');
  const outstanding = await reversal(db, a, partly, C / 2, F / 2, true);
  // Paid and transferred with a paid award (run 1); then refunded in part: a clawback of 3.7485 that run 2 nets.
  const approvedAward = await award(db, a, 7, 12_345_678);
  const paidAward = await award(db, a, 3, 2_500_500);
  const paid = await earn(db, a, 'payable');
  await payout(db, a, `run1-${a.org_id}`, [paid], [paidAward]);
  const netted = await reversal(db, a, paid, 3_748_500, 374_850, true);
  const second = await earn(db, a, 'payable');
  const run2 = await payout(db, a, `run2-${a.org_id}`, [second], [], 3_748_500);
  await db('clawbacks').where('id', netted).update({ recovered_micros: 3_748_500 });
  await db('payout_clawback_recoveries').insert({ payout_id: run2, clawback_id: netted!, micros: 3_748_500 });
  await ledger(db, a, 'clawback', 3_748_500, 0);
  // A payout returned: its line payable again, every entry given back.
  const returnedEarn = await earn(db, a, 'payable', { c: 1_234_500, f: 123_450 });
  const run3 = await payout(db, a, `run3-${a.org_id}`, [returnedEarn], []);
  await db('commissions').where('id', returnedEarn.id).update({ status: 'payable', payout_id: null, paid_at: null });
  await db('payouts').where('id', run3).update({ transfer_status: 'returned', failure: 'seeded', returned_at: new Date() });
  await ledger(db, a, 'payout_return', 1_234_500 + 123_450, 1_234_500 + 123_450, { commissionId: returnedEarn.id });

  await assertLedgerIdentity(t, db); // the seeded books are exact before
  const entriesBefore = await db('wallet_ledger').where('org_id', a.org_id).count<{ count: string }[]>('* as count');

  t.true((await migrateLatest(db)).some((f) => f.startsWith('0049_whole_cents')));

  await assertLedgerIdentity(t, db);

  const money = (id: string) => db('commissions').where('id', id).first('commission_micros', 'platform_fee_micros', 'status');
  t.like(await money(reserved.id), { commission_micros: 10_000_000, platform_fee_micros: 1_000_000, status: 'reserved' });
  t.like(await money(payable.id), { commission_micros: 10_000_000, platform_fee_micros: 1_000_000 });
  t.like(await money(returnedEarn.id), { commission_micros: 1_230_000, platform_fee_micros: 120_000 }, '1.2345 is 1.23, 0.12345 is 0.12');
  const reversals = await db('commissions')
    .where('kind', 'reversal')
    .where('org_id', a.org_id)
    .orderBy('created_at')
    .pluck('commission_micros');
  t.deepEqual(reversals.map(Number), [-10_000_000, -5_000_000, -3_750_000], 'a whole reversal takes the rounded earn exactly');
  t.like(await db('clawbacks').where('id', outstanding).first(), { amount_micros: 5_000_000, recovered_micros: 0 });
  t.like(await db('clawbacks').where('id', netted).first(), { amount_micros: 3_750_000, recovered_micros: 3_750_000 });
  t.like(await db('payout_clawback_recoveries').where('payout_id', run2).first(), { micros: 3_750_000 });
  t.like(await db('payouts').where('id', run2).first(), {
    gross_micros: 10_000_000,
    fees_micros: 1_000_000,
    clawbacks_netted_micros: 3_750_000,
    net_micros: 6_250_000,
  });
  t.like(await db('payouts').where('run_id', `run1-${a.org_id}`).first(), {
    gross_micros: 10_000_000 + 2_500_000,
    awards_micros: 2_500_000,
    net_micros: 12_500_000,
  });
  t.like(await db('payouts').where('id', run3).first(), { gross_micros: 1_230_000, net_micros: 1_230_000, transfer_status: 'returned' });
  t.like(await db('bonus_awards').where('id', approvedAward.id).first(), { amount_micros: 12_350_000, status: 'approved' });
  t.like(await db('bonus_awards').where('id', paidAward.id).first(), { amount_micros: 2_500_000, status: 'paid' });

  // One entry per row that holds money and was rounded: reserved, payable, partly refunded, returned-then-payable,
  // two paid earns, two awards, the netted clawback (the reversed and unfunded earns hold nothing).
  const rounding = await db('wallet_ledger').where({ org_id: a.org_id, entry_type: 'rounding' }).select('*');
  t.is(rounding.length, 9);
  t.is(new Set(rounding.map((r) => r.idempotency_key)).size, 9);
  t.true(rounding.every((r) => /^whole cents \(migration 0049\)/.test(r.memo)));
  const count = await db('wallet_ledger').where('org_id', a.org_id).count<{ count: string }[]>('* as count');
  t.is(Number(count[0]!.count) - Number(entriesBefore[0]!.count), 9);

  const totals = await getWalletTotals(db, a.org_id);
  t.deepEqual(totals, await sumWalletLedger(db, a.org_id));
  t.is(totals.balanceMicros % 10_000, 0, 'the wallet is whole cents');
  t.is(totals.reservedMicros % 10_000, 0);

  // From now on a fraction of a cent cannot be written.
  const refused = await db('commissions')
    .where('id', reserved.id)
    .update({ commission_micros: 9_997_500 })
    .catch((e: Error) => e);
  t.regex(String(refused), /commissions_whole_cents_check/);
  t.regex(
    String(
      await db('payouts')
        .where('id', run2)
        .update({ net_micros: 1, gross_micros: 3_750_001 })
        .catch((e: Error) => e),
    ),
    /whole_cents/,
  );
});
