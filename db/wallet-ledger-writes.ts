// The wallet ledger's writes (db/wallet-ledger.ts says what the ledger is): an entry appended once per cause, and the
// organization lock every per-organization write takes, which reads the wallet's totals in the same round trip.
import type { Knex } from 'knex';
import type { LedgerEntryType } from '../schema/types.js';
import { preparedRaw } from './prepared.js';
import type { WalletTotals } from './wallet-ledger.js';

export interface LedgerEntry {
  orgId: string;
  entryType: LedgerEntryType;
  balanceDeltaMicros: number;
  reservedDeltaMicros: number;
  idempotencyKey: string;
  commissionId?: string | null;
  bonusAwardId?: string | null;
  externalRef?: string | null;
  memo?: string | null;
  createdBy?: string | null;
}

/** Appends the entry unless one with the same idempotency key exists; returns whether it was written now. */
export async function appendLedgerEntry(db: Knex, e: LedgerEntry): Promise<boolean> {
  const rows = await db('wallet_ledger')
    .insert({
      org_id: e.orgId,
      entry_type: e.entryType,
      balance_delta_micros: e.balanceDeltaMicros,
      reserved_delta_micros: e.reservedDeltaMicros,
      idempotency_key: e.idempotencyKey,
      commission_id: e.commissionId ?? null,
      bonus_award_id: e.bonusAwardId ?? null,
      external_ref: e.externalRef ?? null,
      memo: e.memo ?? null,
      created_by: e.createdBy ?? null,
    })
    .onConflict('idempotency_key')
    .ignore()
    .returning('id');
  return rows.length === 1;
}

/**
 * The organization lock: every write that must be serialised per organization (ledger entries, invite capacity,
 * provisioning, bonus approval) takes this row lock. It reads the wallet totals in the same round trip, since most
 * callers decide on them under the lock.
 */
export async function lockOrganization(trx: Knex.Transaction, orgId: string): Promise<WalletTotals> {
  const { balanceMicros, reservedMicros, safeAvailableMicros } = await lockWallet(trx, orgId);
  return { balanceMicros, reservedMicros, safeAvailableMicros };
}

/** The wallet totals read with the organization lock, and its auto-recharge threshold (null when off). */
export interface LockedWallet extends WalletTotals {
  rechargeBelowMicros: number | null;
}

/** The organization lock with the auto-recharge threshold: the earn (db/commissions.ts), a named statement. */
export async function lockWallet(trx: Knex.Transaction, orgId: string): Promise<LockedWallet> {
  const { rows } = await preparedRaw<{ balance: string | null; reserved: string | null; recharge_below: string | null }>(
    trx,
    LOCKED_WALLET_SQL,
    [orgId],
  );
  const row = rows[0];
  const balanceMicros = Number(row?.balance ?? 0);
  const reservedMicros = Number(row?.reserved ?? 0);
  const rechargeBelowMicros = row?.recharge_below == null ? null : Number(row.recharge_below);
  return { balanceMicros, reservedMicros, safeAvailableMicros: balanceMicros - reservedMicros, rechargeBelowMicros };
}

/**
 * The organization locked, its running totals and its auto-recharge threshold (null when off; the earn statement in
 * earn (db/commissions.ts) reads it to know whether the wallet dropped below it); one `?`: the org id. The totals are read
 * after the lock is granted, by `svc_wallet_totals` (migration 0047), whose fresh snapshot sees what the previous
 * holder committed: a read in this statement's own snapshot, taken before it waited, would not.
 */
export const LOCKED_WALLET_SQL = `
    select w.balance, w.reserved, case when o.auto_recharge_enabled then o.auto_recharge_threshold_micros end as recharge_below
    from (select id, auto_recharge_enabled, auto_recharge_threshold_micros from organizations where id = ? for update) o
    cross join lateral svc_wallet_totals(o.id) w`;
