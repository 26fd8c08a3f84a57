// The wallet page's read model: the latest ledger entries of an organization, newest first, with the running
// totals each entry left behind (migration 0013), so a human can follow every change of the balance.
import type { Knex } from 'knex';
import type { LedgerEntryType } from '../schema/types.js';

export interface LedgerLine {
  id: number; entry_type: LedgerEntryType; balance_delta_micros: number; reserved_delta_micros: number;
  balance_after_micros: number; reserved_after_micros: number; memo: string | null; commission_id: string | null;
  bonus_award_id: string | null; external_ref: string | null; created_at: Date;
}

export async function listLedgerEntries(db: Knex, orgId: string, limit = 50): Promise<LedgerLine[]> {
  return db('wallet_ledger').where('org_id', orgId).orderBy('id', 'desc').limit(limit).select<LedgerLine[]>(
    'id', 'entry_type', 'balance_delta_micros', 'reserved_delta_micros', 'balance_after_micros', 'reserved_after_micros',
    'memo', 'commission_id', 'bonus_award_id', 'external_ref', 'created_at');
}
