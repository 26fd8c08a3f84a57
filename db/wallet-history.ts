// The wallet page's read model: the latest ledger entries of an organization, newest first, with the running
// totals each entry left behind (migration 0013), so a human can follow every change of the balance.
import type { Knex } from 'knex';
import type { LedgerEntryType } from '../schema/types.js';
import type { TablePage, TableSpec, TableView } from '../lib/table-query.js';
import { pageOf, type TableWindow } from './table-page.js';

export interface LedgerLine {
  id: number;
  entry_type: LedgerEntryType;
  balance_delta_micros: number;
  reserved_delta_micros: number;
  balance_after_micros: number;
  reserved_after_micros: number;
  memo: string | null;
  commission_id: string | null;
  bonus_award_id: string | null;
  external_ref: string | null;
  created_at: Date;
}

const LEDGER_COLUMNS = [
  'id',
  'entry_type',
  'balance_delta_micros',
  'reserved_delta_micros',
  'balance_after_micros',
  'reserved_after_micros',
  'memo',
  'commission_id',
  'bonus_award_id',
  'external_ref',
  'created_at',
] as const;

export async function listLedgerEntries(db: Knex, orgId: string, limit = 50): Promise<LedgerLine[]> {
  return db('wallet_ledger').where('org_id', orgId).orderBy('id', 'desc').limit(limit).select<LedgerLine[]>(LEDGER_COLUMNS);
}

export const LEDGER_TABLE: TableSpec = {
  sortable: ['id', 'entry_type', 'balance_delta_micros', 'reserved_delta_micros', 'balance_after_micros'],
  searchable: ['entry_type', 'memo', 'commission_id', 'bonus_award_id', 'external_ref'],
  defaultSort: 'id',
  defaultDir: 'desc',
  key: 'id',
};

/** The dashboard's ledger table: every entry of the organization, searched, sorted and cut to `window`. */
export async function pageLedgerEntries(db: Knex, orgId: string, view: TableView, window: TableWindow): Promise<TablePage<LedgerLine>> {
  return pageOf<LedgerLine>(db, db('wallet_ledger').where('org_id', orgId).select(LEDGER_COLUMNS), LEDGER_TABLE, view, window);
}
