// The wallet is a ledger: entries are appended once per cause (idempotency key) and the balances are sums. These
// are the reads (the totals, and the identities the books must keep); appending and the organization lock are
// db/wallet-ledger-writes.ts.
import type { Knex } from 'knex';

export interface WalletTotals {
  balanceMicros: number;
  reservedMicros: number;
  safeAvailableMicros: number;
}

/** The running totals of the organization's latest ledger entry (migration 0013): O(1) whatever the history. */
export async function getWalletTotals(db: Knex, orgId: string): Promise<WalletTotals> {
  const row = await db('wallet_ledger')
    .where('org_id', orgId)
    .orderBy('id', 'desc')
    .first<{ balance_after_micros: number; reserved_after_micros: number } | undefined>('balance_after_micros', 'reserved_after_micros');
  const balanceMicros = row?.balance_after_micros ?? 0;
  const reservedMicros = row?.reserved_after_micros ?? 0;
  return { balanceMicros, reservedMicros, safeAvailableMicros: balanceMicros - reservedMicros };
}

/** The same totals summed over every entry: the audit the running totals must always agree with. */
export async function sumWalletLedger(db: Knex, orgId: string): Promise<WalletTotals> {
  const row = await db('wallet_ledger')
    .where('org_id', orgId)
    .first<{ balance: number; reserved: number }>(
      db.raw('coalesce(sum(balance_delta_micros), 0)::bigint as balance'),
      db.raw('coalesce(sum(reserved_delta_micros), 0)::bigint as reserved'),
    );
  const balanceMicros = Number(row?.balance ?? 0);
  const reservedMicros = Number(row?.reserved ?? 0);
  return { balanceMicros, reservedMicros, safeAvailableMicros: balanceMicros - reservedMicros };
}

/** The wallet totals read with the organization lock, and its auto-recharge threshold (null when off). */
export interface LockedWallet extends WalletTotals {
  rechargeBelowMicros: number | null;
}

export interface WalletDiscrepancy {
  orgId: string;
  shown: WalletTotals;
  summed: WalletTotals;
}

/**
 * The ledger identity, for every organization at once in one snapshot: the totals a wallet shows (the running
 * totals of its latest entry) equal the sums of its entries. Empty when the books are exact.
 */
export async function findWalletDiscrepancies(db: Knex): Promise<WalletDiscrepancy[]> {
  const { rows } = await db.raw<{
    rows: { org_id: string; shown_balance: string; shown_reserved: string; sum_balance: string; sum_reserved: string }[];
  }>(`
    select s.org_id, l.balance_after_micros as shown_balance, l.reserved_after_micros as shown_reserved,
           s.balance as sum_balance, s.reserved as sum_reserved
    from (select org_id, sum(balance_delta_micros) as balance, sum(reserved_delta_micros) as reserved from wallet_ledger group by org_id) s
    join lateral (select balance_after_micros, reserved_after_micros from wallet_ledger w
                  where w.org_id = s.org_id order by id desc limit 1) l on true
    where l.balance_after_micros <> s.balance or l.reserved_after_micros <> s.reserved`);
  const totals = (balance: string, reserved: string): WalletTotals => ({
    balanceMicros: Number(balance),
    reservedMicros: Number(reserved),
    safeAvailableMicros: Number(balance) - Number(reserved),
  });
  return rows.map((r) => ({
    orgId: r.org_id,
    shown: totals(r.shown_balance, r.shown_reserved),
    summed: totals(r.sum_balance, r.sum_reserved),
  }));
}

/**
 * ledger: what the entries say; causes: paid commissions (payout), paid awards (award) or clawbacks recovered
 * (clawback); recorded: what the payout records say.
 */
export interface PayoutDiscrepancy {
  orgId: string;
  check: 'payout' | 'award' | 'clawback';
  ledgerMicros: number;
  causesMicros: number;
  recordedMicros: number;
}

/**
 * The payout side of the identity, for every organization: the `payout` entries of commissions sum to what the paid
 * commissions held (commission + fee), those of bonus awards to the paid awards, which are also the award lines the
 * payout records hold, and the `clawback` entries to the clawbacks recovered, which are also the clawbacks the
 * payout records netted. A returned payout (db/payout-transfers.ts) counts for nothing: its `payout_return` entries
 * undo its entries and its lines are payable again. A `rounding` entry (migration 0049: a row rounded to the cent)
 * counts with its commission or award, or, naming neither, with the clawbacks. Empty when the books are exact.
 */
export async function findPayoutDiscrepancies(db: Knex): Promise<PayoutDiscrepancy[]> {
  const { rows } = await db.raw<{
    rows: { org_id: string; check: PayoutDiscrepancy['check']; ledger: string; causes: string; also: string }[];
  }>(
    `
    with paid as (
      select org_id, -sum(balance_delta_micros) filter (where entry_type in ` +
      `('payout', 'payout_return', 'rounding') and commission_id is not null) as payout_entries,
             -sum(balance_delta_micros) filter (where entry_type in ` +
      `('payout', 'payout_return', 'rounding') and bonus_award_id is not null) as award_entries,
             sum(balance_delta_micros) filter (where entry_type = 'clawback'
               or (entry_type in ('payout_return', 'rounding') and ` +
      `commission_id is null and bonus_award_id is null)) as clawback_entries
      from wallet_ledger where entry_type in ('payout', 'clawback', 'payout_return', 'rounding') group by org_id
    ), commissions_paid as (
      select org_id, sum(commission_micros + platform_fee_micros) as held from commissions where status = 'paid' group by org_id
    ), awards_paid as (
      select org_id, sum(amount_micros) as paid from bonus_awards where status = 'paid' group by org_id
    ), recovered as (
      select org_id, sum(recovered_micros) as recovered from clawbacks group by org_id
    ), netted as (
      select org_id, sum(clawbacks_netted_micros) as netted, ` +
      `sum(awards_micros) as awards from payouts where transfer_status <> 'returned' group by org_id
    ), orgs as (
      select org_id from paid union select org_id from commissions_paid union select org_id from awards_paid
      union select org_id from recovered union select org_id from netted
    )
    select o.org_id, 'payout' as check, coalesce(p.payout_entries, ` +
      `0) as ledger, coalesce(c.held, 0) as causes, coalesce(c.held, 0) as also
    from orgs o left join paid p using (org_id) left join commissions_paid c using (org_id)
    where coalesce(p.payout_entries, 0) <> coalesce(c.held, 0)
    union all
    select o.org_id, 'award', coalesce(p.award_entries, 0), coalesce(a.paid, 0), coalesce(n.awards, 0)
    from orgs o left join paid p using (org_id) left join awards_paid a using (org_id) left join netted n using (org_id)
    where coalesce(p.award_entries, 0) <> coalesce(a.paid, 0) or coalesce(a.paid, 0) <> coalesce(n.awards, 0)
    union all
    select o.org_id, 'clawback', coalesce(p.clawback_entries, 0), coalesce(r.recovered, 0), coalesce(n.netted, 0)
    from orgs o left join paid p using (org_id) left join recovered r using (org_id) left join netted n using (org_id)
    where coalesce(p.clawback_entries, 0) <> coalesce(r.recovered, 0) or coalesce(r.recovered, 0) <> coalesce(n.netted, 0)`,
  );
  return rows.map((r) => ({
    orgId: r.org_id,
    check: r.check,
    ledgerMicros: Number(r.ledger),
    causesMicros: Number(r.causes),
    recordedMicros: Number(r.also),
  }));
}

/**
 * A reservation and its cause disagree: `cause` is a commission or bonus award id, or null for entries that name
 * neither. `reservedMicros`: what the ledger holds for it; `owedMicros`: what it should hold.
 */
export interface ReservationDiscrepancy {
  orgId: string;
  cause: string | null;
  reservedMicros: number;
  owedMicros: number;
}

/**
 * The reserved side of the identity, per cause, for every organization: each live commission (`reserved` or
 * `payable`: commission + fee) and each `approved` bonus award (its amount) holds exactly its reservation, and
 * nothing else holds any (an unfunded, reversed or paid commission, a voided or paid award, an entry without a cause:
 * zero). So no reservation exists without a live commission or an approved award behind it. Empty when exact.
 */
export async function findReservationDiscrepancies(db: Knex): Promise<ReservationDiscrepancy[]> {
  const { rows } = await db.raw<{ rows: { org_id: string; cause: string; reserved: string; owed: string }[] }>(
    `
    with held as (
      select org_id, coalesce(commission_id, bonus_award_id, '') as cause, sum(reserved_delta_micros) as reserved
      from wallet_ledger group by 1, 2
    ), owed as (
      select org_id, id as cause, commission_micros + platform_fee_micros as owed from commissions
      where kind = 'earn' and status in ('reserved', 'payable') and commission_micros + platform_fee_micros <> 0
      union all
      select org_id, id, amount_micros from bonus_awards where status = 'approved' and amount_micros <> 0
    )
    select coalesce(h.org_id, o.org_id) as org_id, coalesce(h.cause, ` +
      `o.cause) as cause, coalesce(h.reserved, 0) as reserved, coalesce(o.owed, 0) as owed
    from held h full join owed o on o.org_id = h.org_id and o.cause = h.cause
    where coalesce(h.reserved, 0) <> coalesce(o.owed, 0)`,
  );
  return rows.map((r) => ({
    orgId: r.org_id,
    cause: r.cause === '' ? null : r.cause,
    reservedMicros: Number(r.reserved),
    owedMicros: Number(r.owed),
  }));
}

/** The sum of every organization's wallet balance (the money the platform holds for them): the daily balance check. */
export async function totalWalletBalancesMicros(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { total: string | null }[] }>(`
    select sum(l.balance_after_micros) as total from organizations o
    join lateral (select balance_after_micros from wallet_ledger w where w.org_id = o.id order by id desc limit 1) l on true`);
  return Number(rows[0]?.total ?? 0);
}
