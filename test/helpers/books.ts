// The books after a test: the ledger identity every integration test ends with (test/helpers/harness.ts) and the
// exact figures a fault drill expects of one organization's wallet (test/helpers/provider.ts, the store drill).
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import {
  findPayoutDiscrepancies,
  findReservationDiscrepancies,
  findWalletDiscrepancies,
  getWalletTotals,
  sumWalletLedger,
} from '../../db/wallet-ledger.js';

/**
 * Each wallet shows exactly the sums of its entries, its payout and clawback entries are exactly what paid
 * commissions, paid awards and recovered clawbacks account for, and every reservation has a live commission or an
 * approved award behind it (and only those hold one).
 */
export async function assertLedgerIdentity(t: ExecutionContext, db: Knex): Promise<void> {
  t.deepEqual(await findWalletDiscrepancies(db), [], 'wallet totals differ from the sums of their ledger entries');
  t.deepEqual(await findPayoutDiscrepancies(db), [], 'payout or clawback entries differ from what their causes account for');
  t.deepEqual(await findReservationDiscrepancies(db), [], 'a reservation differs from what its commission or bonus award holds');
}

export interface ExpectedLedger {
  /** `reserve` entries: one per funded production earn (a restored period's earn included). */
  reserves: number;
  /** `reversal` entries: one per refunded production period. */
  releases: number;
  reservedMicros: number;
}

/** One organization's wallet after a drill: its entries counted, its reserved total exact, the identity holding. */
export async function assertWalletExact(t: ExecutionContext, db: Knex, orgId: string, expected: ExpectedLedger): Promise<number> {
  const entries = await db('wallet_ledger')
    .where('org_id', orgId)
    .select('entry_type')
    .count<{ entry_type: string; count: string }[]>('* as count')
    .groupBy('entry_type');
  const entriesOf = (type: string) => Number(entries.find((e) => e.entry_type === type)?.count ?? 0);
  t.is(entriesOf('reserve'), expected.reserves, 'one reservation per paid production period');
  t.is(entriesOf('reversal'), expected.releases, 'one release per refunded production period');
  const sums = await sumWalletLedger(db, orgId);
  t.is(sums.reservedMicros, expected.reservedMicros, 'reserved total exact');
  t.deepEqual(await getWalletTotals(db, orgId), sums, 'running totals equal the sums over the ledger');
  await assertLedgerIdentity(t, db);
  return sums.reservedMicros;
}
