// Payout runs, phase 2's reads (docs/wallet-and-payouts.md "Two phases"): which payouts still wait for their
// transfer, and a payout by id or by its transfer. The writes (a transfer recorded once, a payout settled or
// returned) are db/payout-transfers-writes.ts, run by actions/payout-transfers.ts.
import type { Knex } from 'knex';
import type { PayoutRow } from '../schema/types.js';

export async function findPayout(db: Knex, payoutId: string): Promise<PayoutRow | undefined> {
  return db('payouts').where('id', payoutId).first<PayoutRow | undefined>();
}

export async function findPayoutByTransfer(db: Knex, transferId: string): Promise<PayoutRow | undefined> {
  return db('payouts').where('transfer_id', transferId).first<PayoutRow | undefined>();
}

/** The payouts of a run still waiting for their transfer, in creator order. */
export async function pendingPayoutsOfRun(db: Knex, runId: string): Promise<string[]> {
  const rows = await db('payouts')
    .where({ run_id: runId, transfer_status: 'transfer_pending' })
    .orderBy('creator_id')
    .select<{ id: string }[]>('id');
  return rows.map((r) => r.id);
}

/** Every run with a payout still waiting for its transfer: the worker resumes them at start. */
export async function runsWithPendingTransfers(db: Knex): Promise<{ orgId: string; runId: string }[]> {
  const rows = await db('payouts')
    .where('transfer_status', 'transfer_pending')
    .distinct<{ org_id: string; run_id: string }[]>('org_id', 'run_id')
    .orderBy('run_id');
  return rows.map((r) => ({ orgId: r.org_id, runId: r.run_id }));
}
