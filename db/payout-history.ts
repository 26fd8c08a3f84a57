// Reading past payout runs (db/payouts.ts writes them) for the dashboard's wallet page: the latest runs of an
// organization with their per-creator payouts and holdovers, and one run by id within an organization.
import type { Knex } from 'knex';
import type { PayoutRow, PayoutRunRow } from '../schema/types.js';
import { awardsOfPayouts } from './bonus-awards.js';
import { holdoversOfRuns, type HeldOver } from './payout-holdovers.js';
import { awardLine, type AwardLine } from './payouts.js';
import type { TablePage, TableSpec, TableView } from '../lib/table-query.js';
import { pageOf, type TableWindow } from './table-page.js';

/** A creator's payout with its award lines (the approved bonus awards it paid). */
export interface PayoutLine extends PayoutRow {
  creator_name: string | null;
  awards: AwardLine[];
}
export interface PayoutRunView extends PayoutRunRow {
  payouts: PayoutLine[];
  /** The creators this run held over and why, with their names. */
  held_over: (HeldOver & { creator_name: string | null })[];
}

async function withPayouts(db: Knex, runs: PayoutRunRow[]): Promise<PayoutRunView[]> {
  if (runs.length === 0) return [];
  const rows = await db('payouts')
    .leftJoin('creators', 'creators.id', 'payouts.creator_id')
    .whereIn(
      'payouts.run_id',
      runs.map((r) => r.id),
    )
    .orderBy([{ column: 'payouts.run_id' }, { column: 'payouts.creator_id' }])
    .select<(PayoutRow & { creator_name: string | null })[]>('payouts.*', 'creators.name as creator_name');
  const awards = await awardsOfPayouts(
    db,
    rows.map((r) => r.id),
  );
  const lines: PayoutLine[] = rows.map((r) => ({ ...r, awards: awards.filter((a) => a.payout_id === r.id).map(awardLine) }));
  const held = await holdoversOfRuns(
    db,
    runs.map((r) => r.id),
  );
  const names = await creatorNames(db, [...new Set([...held.values()].flat().map((h) => h.creator_id))]);
  return runs.map((run) => ({
    ...run,
    payouts: lines.filter((l) => l.run_id === run.id),
    held_over: (held.get(run.id) ?? []).map((h) => ({ ...h, creator_name: names.get(h.creator_id) ?? null })),
  }));
}

/** The organization's latest payout runs, newest first, each with its payouts (creator id order). */
export async function listPayoutRuns(db: Knex, orgId: string, limit = 20): Promise<PayoutRunView[]> {
  const runs = await db('payout_runs')
    .where('org_id', orgId)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select<PayoutRunRow[]>('*');
  return withPayouts(db, runs);
}

/** One run of the organization; undefined when it does not exist or belongs to another organization. */
export async function findPayoutRun(db: Knex, orgId: string, runId: string): Promise<PayoutRunView | undefined> {
  const run = await db('payout_runs').where({ id: runId, org_id: orgId }).first<PayoutRunRow | undefined>();
  return run ? (await withPayouts(db, [run]))[0] : undefined;
}

/** Creator id -> name, for showing a dry run (which names creators by id). */
export async function creatorNames(db: Knex, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db('creators').whereIn('id', ids).select<{ id: string; name: string }[]>('id', 'name');
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A payout of the dashboard's payouts table: one creator's line of one run. */
export type PayoutTableRow = PayoutRow & { creator_name: string | null };

export const PAYOUT_TABLE: TableSpec = {
  sortable: [
    'created_at',
    'run_id',
    'creator_name',
    'commission_count',
    'awards_micros',
    'gross_micros',
    'fees_micros',
    'clawbacks_netted_micros',
    'net_micros',
  ],
  searchable: ['run_id', 'creator_id', 'creator_name'],
  defaultSort: 'created_at',
  defaultDir: 'desc',
  key: 'id',
};

/** Every payout of the organization (optionally of one creator), searched, sorted and cut to `window`. */
export async function pagePayouts(
  db: Knex,
  orgId: string,
  filter: { creatorId?: string },
  view: TableView,
  window: TableWindow,
): Promise<TablePage<PayoutTableRow>> {
  const base = db('payouts')
    .leftJoin('creators', 'creators.id', 'payouts.creator_id')
    .where('payouts.org_id', orgId)
    .select('payouts.*', 'creators.name as creator_name');
  if (filter.creatorId) void base.where('payouts.creator_id', filter.creatorId);
  return pageOf<PayoutTableRow>(db, base, PAYOUT_TABLE, view, window);
}
