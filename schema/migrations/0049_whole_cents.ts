import type { Knex } from 'knex';

// Whole cents (issue 36, docs/wallet-and-payouts.md "Cents"). Money leaves in cents, so every amount that moves money
// is now created in whole cents (lib/money.ts mulDivRound). Rows written before hold fractions of a cent (a 25 %
// commission of $39.99 was $9.9975); this migration rounds each by the same rule (half away from zero, to the cent)
// and gives each rounded row one `rounding` ledger entry (a new entry type, any sign, at most 5 cents either way, memo
// required) so the identities of db/wallet-ledger.ts hold after it:
//
// * an earn commission: commission and fee each rounded; live (`reserved`, `payable`): the reservation follows
//   (reserved +delta); `paid`: the money that left follows (balance -delta); otherwise (reversed, unfunded,
//   simulated) nothing is held and no entry is written.
// * a reversal row: the reversals of one earn are rounded cumulatively (the running total taken, rounded, minus the
//   previous one), as lib/refund-share.ts takes shares, so together they never take more than the rounded earn and a
//   whole reversal takes it exactly. No entry: a reversal moves money through its earn's state.
// * a bonus award: rounded; `approved`: reserved +delta; `paid`: balance -delta.
// * a clawback: its amount is its reversal's (rounded) commission; what payouts recovered of it is rounded
//   cumulatively over its recovery lines (payout_clawback_recoveries, oldest payout first) and never past the
//   amount; a recovery of nothing is removed; one entry (balance +delta: the money the wallet kept).
// * a payout not returned: gross, fees, awards and clawbacks netted follow its lines' deltas, net = gross - netted.
//   A returned payout (its lines payable again, nothing of it counts) has its figures rounded as they stand.
// Then CHECK constraints make a fraction of a cent impossible in these columns, and bonus rule amounts are rounded.
// Payouts transferred before this migration sent their net rounded to the cent; where that differs from the new net
// the daily balance check names them (lib/balance-check.ts).

const ENTRY_TYPES_BEFORE = ['topup', 'reserve', 'release', 'reversal', 'payout', 'adjustment', 'clawback', 'payout_return'];
const ENTRY_TYPES_AFTER = [...ENTRY_TYPES_BEFORE, 'rounding'];
const SIGNS_BEFORE =
  `(entry_type = 'topup' and balance_delta_micros > 0 and reserved_delta_micros = 0)
       or (entry_type = 'reserve' and balance_delta_micros = 0 and reserved_delta_micros > 0)
       or (entry_type in ('release', 'reversal') and balance_delta_micros = 0 and reserved_delta_micros < 0)
       or (entry_type = 'payout' and balance_delta_micros < 0 and reserved_delta_micros <= 0
           and reserved_delta_micros >= balance_delta_micros)
       or (entry_type = 'adjustment' and (balance_delta_micros <> 0 or reserved_delta_micros <> 0) and memo is not null)
       or (entry_type = 'clawback' and balance_delta_micros > 0 and reserved_delta_micros = 0)
       or (entry_type = 'payout_return' and ((balance_delta_micros > 0 and ` +
  `reserved_delta_micros >= 0 and reserved_delta_micros <= balance_delta_micros)
           or (balance_delta_micros < 0 and reserved_delta_micros = 0)))`;
const SIGNS_AFTER = `${SIGNS_BEFORE}
       or (entry_type = 'rounding' and (balance_delta_micros <> 0 or reserved_delta_micros <> 0) and memo is not null
           and abs(balance_delta_micros) <= 50000 and abs(reserved_delta_micros) <= 50000)`;

/** Columns that hold money, per table: each a multiple of 10,000 micros after this migration. */
const CENT_COLUMNS: Record<string, string[]> = {
  commissions: ['commission_micros', 'platform_fee_micros'],
  bonus_awards: ['amount_micros'],
  bonus_rules: ['bonus_micros'],
  clawbacks: ['amount_micros', 'recovered_micros'],
  payouts: ['gross_micros', 'fees_micros', 'clawbacks_netted_micros', 'net_micros', 'awards_micros'],
  payout_clawback_recoveries: ['micros'],
};

const CENT = 10_000;
/** The rule of lib/money.ts, on safe integers: half away from zero, to the cent. */
const cents = (micros: number) => Math.sign(micros) * Math.round(Math.abs(micros) / CENT) * CENT;
const usd = (micros: number) => (micros / 1_000_000).toFixed(6);
const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

interface Entry {
  orgId: string;
  commissionId?: string;
  bonusAwardId?: string;
  key: string;
  balance: number;
  reserved: number;
  memo: string;
}

async function clawbackAmountsCheck(knex: Knex, amount: string): Promise<void> {
  await knex.raw('alter table clawbacks drop constraint clawbacks_amounts_check');
  await knex.raw(
    `alter table clawbacks add constraint clawbacks_amounts_check check ` +
      `(${amount} and recovered_micros >= 0 and recovered_micros <= amount_micros)`,
  );
}

async function ledgerConstraints(knex: Knex, entryTypes: string[], signs: string): Promise<void> {
  await knex.raw('alter table wallet_ledger drop constraint wallet_ledger_entry_type_check');
  await knex.raw(`alter table wallet_ledger add constraint wallet_ledger_entry_type_check check (entry_type in (${list(entryTypes)}))`);
  await knex.raw('alter table wallet_ledger drop constraint wallet_ledger_sign_check');
  await knex.raw(`alter table wallet_ledger add constraint wallet_ledger_sign_check check (${signs})`);
}

/** Per payout: how its figures move with its lines. */
type PayoutDelta = { gross: number; fees: number; awards: number; netted: number };

export async function up(knex: Knex): Promise<void> {
  await ledgerConstraints(knex, ENTRY_TYPES_AFTER, SIGNS_AFTER);
  const entries: Entry[] = [];
  const payoutDeltas = new Map<string, PayoutDelta>();
  const deltaOf = (payoutId: string) => {
    let d = payoutDeltas.get(payoutId);
    if (!d) payoutDeltas.set(payoutId, (d = { gross: 0, fees: 0, awards: 0, netted: 0 }));
    return d;
  };

  // Earns.
  const earns: {
    id: string;
    org_id: string;
    status: string;
    payout_id: string | null;
    commission_micros: number;
    platform_fee_micros: number;
  }[] = await knex('commissions')
    .where('kind', 'earn')
    .whereRaw('(commission_micros % 10000 <> 0 or platform_fee_micros % 10000 <> 0)')
    .select('id', 'org_id', 'status', 'payout_id', 'commission_micros', 'platform_fee_micros');
  for (const e of earns) {
    const [c, f] = [Number(e.commission_micros), Number(e.platform_fee_micros)];
    const [c2, f2] = [cents(c), cents(f)];
    await knex('commissions').where('id', e.id).update({ commission_micros: c2, platform_fee_micros: f2 });
    const delta = c2 + f2 - (c + f);
    const memo = `whole cents (migration 0049): commission ${usd(c)} -> ${usd(c2)}, fee ${usd(f)} -> ${usd(f2)}`;
    if (delta !== 0 && (e.status === 'reserved' || e.status === 'payable'))
      entries.push({ orgId: e.org_id, commissionId: e.id, key: `rounding:0049:${e.id}`, balance: 0, reserved: delta, memo });
    if (e.status === 'paid') {
      if (delta !== 0)
        entries.push({ orgId: e.org_id, commissionId: e.id, key: `rounding:0049:${e.id}`, balance: -delta, reserved: 0, memo });
      if (e.payout_id)
        Object.assign(deltaOf(e.payout_id), { gross: deltaOf(e.payout_id).gross + c2 - c, fees: deltaOf(e.payout_id).fees + f2 - f });
    }
  }

  // Reversals, cumulatively per earn.
  const reversals: {
    id: string;
    reverses_commission_id: string;
    purchase_event_id: string;
    commission_micros: number;
    platform_fee_micros: number;
  }[] = await knex('commissions')
    .where('kind', 'reversal')
    .whereIn(
      'reverses_commission_id',
      knex('commissions')
        .where('kind', 'reversal')
        .whereRaw('(commission_micros % 10000 <> 0 or platform_fee_micros % 10000 <> 0)')
        .select('reverses_commission_id'),
    )
    .orderBy([{ column: 'reverses_commission_id' }, { column: 'created_at' }, { column: 'id' }])
    .select('id', 'reverses_commission_id', 'purchase_event_id', 'commission_micros', 'platform_fee_micros');
  const reversalCommission = new Map<string, number>(); // `${earn}/${refund event}` -> rounded commission taken
  let sums = { earn: '', c: 0, f: 0 };
  for (const r of reversals) {
    if (sums.earn !== r.reverses_commission_id) sums = { earn: r.reverses_commission_id, c: 0, f: 0 };
    const [c, f] = [Number(r.commission_micros), Number(r.platform_fee_micros)];
    const c2 = cents(sums.c + c) - cents(sums.c);
    const f2 = cents(sums.f + f) - cents(sums.f);
    sums = { earn: sums.earn, c: sums.c + c, f: sums.f + f };
    if (c2 !== c || f2 !== f) await knex('commissions').where('id', r.id).update({ commission_micros: c2, platform_fee_micros: f2 });
    reversalCommission.set(`${r.reverses_commission_id}/${r.purchase_event_id}`, -c2);
  }

  // Bonus awards.
  const awards: { id: string; org_id: string; status: string; payout_id: string | null; amount_micros: number }[] = await knex(
    'bonus_awards',
  )
    .whereRaw('amount_micros % 10000 <> 0')
    .select('id', 'org_id', 'status', 'payout_id', 'amount_micros');
  for (const a of awards) {
    const [m, m2] = [Number(a.amount_micros), cents(Number(a.amount_micros))];
    await knex('bonus_awards').where('id', a.id).update({ amount_micros: m2 });
    const memo = `whole cents (migration 0049): bonus award ${usd(m)} -> ${usd(m2)}`;
    if (m2 === m) continue;
    if (a.status === 'approved')
      entries.push({ orgId: a.org_id, bonusAwardId: a.id, key: `rounding:0049:${a.id}`, balance: 0, reserved: m2 - m, memo });
    if (a.status === 'paid') {
      entries.push({ orgId: a.org_id, bonusAwardId: a.id, key: `rounding:0049:${a.id}`, balance: -(m2 - m), reserved: 0, memo });
      if (a.payout_id) {
        const d = deltaOf(a.payout_id);
        Object.assign(d, { gross: d.gross + m2 - m, awards: d.awards + m2 - m });
      }
    }
  }

  // Clawbacks and what payouts recovered of them.
  const clawbacks: {
    id: string;
    org_id: string;
    commission_id: string;
    refund_event_id: string;
    creator_id: string;
    amount_micros: number;
    recovered_micros: number;
  }[] = await knex('clawbacks')
    .select('id', 'org_id', 'creator_id', 'commission_id', 'refund_event_id', 'amount_micros', 'recovered_micros')
    .whereRaw('amount_micros % 10000 <> 0 or recovered_micros % 10000 <> 0')
    .orWhereIn('id', knex('payout_clawback_recoveries').whereRaw('micros % 10000 <> 0').select('clawback_id'));
  // A clawback's amount may round to nothing (a share below half a cent): it is then owed no more.
  await clawbackAmountsCheck(knex, 'amount_micros >= 0');
  for (const cb of clawbacks) {
    const amount = Number(cb.amount_micros);
    const amount2 = reversalCommission.get(`${cb.commission_id}/${cb.refund_event_id}`) ?? cents(amount);
    const lines: { payout_id: string; micros: number }[] = await knex('payout_clawback_recoveries as r')
      .join('payouts as p', 'p.id', 'r.payout_id')
      .where('r.clawback_id', cb.id)
      .whereNot('p.transfer_status', 'returned')
      .orderBy([{ column: 'p.created_at' }, { column: 'p.id' }])
      .select('r.payout_id', 'r.micros');
    let before = 0;
    let before2 = 0;
    for (const line of lines) {
      const m = Number(line.micros);
      const after2 = Math.min(cents(before + m), amount2);
      const m2 = after2 - before2;
      before += m;
      before2 = after2;
      if (m2 === m) continue;
      const where = { payout_id: line.payout_id, clawback_id: cb.id };
      if (m2 === 0) await knex('payout_clawback_recoveries').where(where).delete();
      else await knex('payout_clawback_recoveries').where(where).update({ micros: m2 });
      deltaOf(line.payout_id).netted += m2 - m;
    }
    // Recoveries of payouts made before their lines were recorded (migration 0034) are rounded as they stand.
    const unlisted = Number(cb.recovered_micros) - before;
    const recovered2 = Math.min(before2 + cents(unlisted), amount2);
    if (recovered2 - before2 !== unlisted) {
      const [legacy] = await knex('payouts')
        .where({ org_id: cb.org_id, creator_id: cb.creator_id })
        .whereNot('transfer_status', 'returned')
        .where('clawbacks_netted_micros', '>', 0)
        .orderBy('created_at', 'desc')
        .select('id');
      if (!legacy) throw new Error(`clawback ${cb.id}: recovered without a payout that netted it; correct it by hand`);
      deltaOf(legacy.id).netted += recovered2 - before2 - unlisted;
    }
    await knex('clawbacks').where('id', cb.id).update({ amount_micros: amount2, recovered_micros: recovered2 });
    const delta = recovered2 - Number(cb.recovered_micros);
    if (delta !== 0)
      entries.push({
        orgId: cb.org_id,
        key: `rounding:0049:${cb.id}`,
        balance: delta,
        reserved: 0,
        memo: `whole cents (migration 0049): clawback ${cb.id} recovered ${usd(Number(cb.recovered_micros))} -> ${usd(recovered2)}`,
      });
  }

  // Payouts: those not returned follow their lines; returned ones are rounded as they stand.
  for (const [id, d] of payoutDeltas) {
    await knex('payouts')
      .where('id', id)
      .update({
        gross_micros: knex.raw('gross_micros + ?', [d.gross]),
        fees_micros: knex.raw('fees_micros + ?', [d.fees]),
        awards_micros: knex.raw('awards_micros + ?', [d.awards]),
        clawbacks_netted_micros: knex.raw('clawbacks_netted_micros + ?', [d.netted]),
        net_micros: knex.raw('net_micros + ?', [d.gross - d.netted]),
      });
  }
  const round = (column: string) => knex.raw(`(round(${column}::numeric / 10000) * 10000)::bigint`);
  await knex('payouts')
    .where('transfer_status', 'returned')
    .update({
      gross_micros: round('gross_micros'),
      fees_micros: round('fees_micros'),
      awards_micros: round('awards_micros'),
      clawbacks_netted_micros: round('clawbacks_netted_micros'),
      net_micros: knex.raw('(round(gross_micros::numeric / 10000) - round(clawbacks_netted_micros::numeric / 10000))::bigint * 10000'),
    });
  const returnedLines = knex('payout_clawback_recoveries').whereIn(
    'payout_id',
    knex('payouts').where('transfer_status', 'returned').select('id'),
  );
  await returnedLines.clone().where('micros', '<', 5000).delete();
  await returnedLines.clone().update({ micros: round('micros') });
  await knex('commissions')
    .whereRaw('(commission_micros % 10000 <> 0 or platform_fee_micros % 10000 <> 0)')
    .update({ commission_micros: round('commission_micros'), platform_fee_micros: round('platform_fee_micros') });
  await knex('bonus_rules')
    .whereRaw('bonus_micros % 10000 <> 0')
    .update({ bonus_micros: round('bonus_micros') });

  // One entry per rounded row, each under the running totals' trigger (migration 0013), one at a time.
  for (const e of entries) {
    await knex('wallet_ledger').insert({
      org_id: e.orgId,
      entry_type: 'rounding',
      balance_delta_micros: e.balance,
      reserved_delta_micros: e.reserved,
      commission_id: e.commissionId ?? null,
      bonus_award_id: e.bonusAwardId ?? null,
      idempotency_key: e.key,
      memo: e.memo,
      created_by: 'migration:0049_whole_cents',
    });
  }

  for (const [table, columns] of Object.entries(CENT_COLUMNS))
    await knex.raw(
      `alter table ${table} add constraint ${table}_whole_cents_check check (${columns.map((c) => `${c} % 10000 = 0`).join(' and ')})`,
    );
}

// The rounding entries stay (the ledger is append-only): going back only lifts the constraints; it is refused once a
// `rounding` entry or a clawback rounded to nothing exists, as earlier migrations refuse to drop what is in use.
export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(CENT_COLUMNS)) await knex.raw(`alter table ${table} drop constraint ${table}_whole_cents_check`);
  await clawbackAmountsCheck(knex, 'amount_micros > 0');
  await ledgerConstraints(knex, ENTRY_TYPES_BEFORE, SIGNS_BEFORE);
}
