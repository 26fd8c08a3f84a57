// The creators a recorded payout run held over and why (payout_run_holdovers, migration 0048), written in the run's
// transaction (actions/payout-run.ts) and read by the run's page and a repeat of `svc payouts run`.
import type { Knex } from 'knex';

export interface HeldOver {
  creator_id: string;
  /** What the creator would have been paid now (net of clawbacks). */
  payable_micros: number;
  reason: string;
}

export async function recordHoldovers(trx: Knex.Transaction, runId: string, held: readonly HeldOver[]): Promise<void> {
  if (held.length === 0) return;
  await trx('payout_run_holdovers').insert(held.map((h) => ({ run_id: runId, ...h })));
}

/** The holdovers of these runs, by run id (creator order). */
export async function holdoversOfRuns(db: Knex, runIds: readonly string[]): Promise<Map<string, HeldOver[]>> {
  const byRun = new Map<string, HeldOver[]>();
  if (runIds.length === 0) return byRun;
  const rows = await db('payout_run_holdovers')
    .whereIn('run_id', runIds)
    .orderBy([{ column: 'run_id' }, { column: 'creator_id' }])
    .select<(HeldOver & { run_id: string; payable_micros: string | number })[]>('run_id', 'creator_id', 'payable_micros', 'reason');
  for (const r of rows) {
    const list = byRun.get(r.run_id) ?? byRun.set(r.run_id, []).get(r.run_id)!;
    list.push({ creator_id: r.creator_id, payable_micros: Number(r.payable_micros), reason: r.reason });
  }
  return byRun;
}
