// Payout runs, phase 1's records (docs/wallet-and-payouts.md "Two phases"): the reads a run plans from (payable
// commissions, outstanding clawbacks; locked when the run pays), the run recorded, one creator's payout written
// (commissions and awards `paid`, ledger entries, clawbacks recovered) and a recorded run read back. Every function
// works inside the caller's transaction: the run's transaction, its organization lock and the rule of who is paid
// are actions/payout-run.ts's.
import type { Knex } from 'knex';
import { ConflictError } from '../errors/http-errors.js';
import type { CreatorPayoutPlan, OutstandingClawback, PayableCommission } from '../lib/payouts.js';
import type { PayoutRow, PayoutTransferStatus } from '../schema/types.js';
import { awardsOfPayouts, type PayableAward } from './bonus-awards.js';
import { markAwardsPaid } from './bonus-awards-writes.js';
import { addPayoutDigestItem } from './creator-digests.js';
import { appendLedgerEntry } from './wallet-ledger-writes.js';

/** One award line of a payout: the approved award paid (no platform fee). */
export interface AwardLine {
  award_id: string;
  bonus_rule_id: string;
  campaign_id: string;
  threshold_conversions: number;
  amount_micros: number;
}

export interface CreatorPayout {
  creator_id: string;
  payout_id: string | null;
  commission_count: number;
  /** gross = commissions + awards; net = gross - clawbacks netted. */
  gross_micros: number;
  fees_micros: number;
  clawbacks_netted_micros: number;
  net_micros: number;
  award_count: number;
  awards_micros: number;
  awards: AwardLine[];
  /** The transfer's state (null in a dry run: nothing was recorded); its words are lib/payout-status.ts's. */
  transfer_status: PayoutTransferStatus | null;
  failure: string | null;
}

/** A recorded run's payouts (creator order); undefined when the run id is unused; another organization's is refused. */
export async function recordedPayouts(trx: Knex.Transaction, orgId: string, runId: string): Promise<CreatorPayout[] | undefined> {
  const previous = await trx('payout_runs').where('id', runId).first<{ org_id: string } | undefined>('org_id');
  if (!previous) return undefined;
  if (previous.org_id !== orgId) throw new ConflictError(`payout run ${runId} belongs to another organization`);
  const rows = await trx('payouts').where('run_id', runId).orderBy('creator_id').select<PayoutRow[]>('*');
  const lines = await awardsOfPayouts(
    trx,
    rows.map((r) => r.id),
  );
  return rows.map((r) =>
    recorded(
      r,
      lines.filter((l) => l.payout_id === r.id),
    ),
  );
}

export async function recordPayoutRun(trx: Knex.Transaction, run: { orgId: string; runId: string; createdBy?: string }): Promise<void> {
  await trx('payout_runs').insert({ id: run.runId, org_id: run.orgId, created_by: run.createdBy ?? null });
}

export async function payableCommissions(trx: Knex.Transaction, orgId: string, lock: boolean): Promise<PayableCommission[]> {
  const q = trx('commissions')
    .where({ org_id: orgId, status: 'payable', kind: 'earn', environment: 'PRODUCTION' })
    // A held commission never becomes payable (db/commission-holding-writes.ts); a run checks again all the same.
    .whereRaw("review_state is distinct from 'held'")
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select<{ id: string; creator_id: string; commission_micros: number; platform_fee_micros: number }[]>(
      'id',
      'creator_id',
      'commission_micros',
      'platform_fee_micros',
    );
  const rows = await (lock ? q.forUpdate() : q);
  return rows.map((r) => ({
    id: r.id,
    creatorId: r.creator_id,
    commissionMicros: r.commission_micros,
    platformFeeMicros: r.platform_fee_micros,
  }));
}

export async function outstandingClawbacks(trx: Knex.Transaction, orgId: string, lock: boolean): Promise<OutstandingClawback[]> {
  const q = trx('clawbacks')
    .where('org_id', orgId)
    .whereRaw('recovered_micros < amount_micros')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select<{ id: string; creator_id: string; amount_micros: number; recovered_micros: number }[]>(
      'id',
      'creator_id',
      'amount_micros',
      'recovered_micros',
    );
  const rows = await (lock ? q.forUpdate() : q);
  return rows.map((r) => ({ id: r.id, creatorId: r.creator_id, amountMicros: r.amount_micros, recoveredMicros: r.recovered_micros }));
}

/**
 * One creator's payout: the record, each commission `paid` with a `payout` entry (commission + fee leave the wallet
 * and its reservation is consumed), each award `paid` with its own `payout` entry (its amount, reservation consumed),
 * the netted clawbacks recovered and one `clawback` entry for the money that stayed.
 */
export async function payCreator(
  trx: Knex.Transaction,
  input: { orgId: string; runId: string },
  plan: CreatorPayoutPlan,
  awards: AwardLine[],
): Promise<CreatorPayout> {
  // Nothing to send (clawbacks netted the whole gross): settled at once, phase 2 has nothing to do.
  const transferStatus: PayoutTransferStatus = plan.netMicros === 0 ? 'settled' : 'transfer_pending';
  const [row] = await trx('payouts')
    .insert({
      run_id: input.runId,
      org_id: input.orgId,
      creator_id: plan.creatorId,
      commission_count: plan.commissionIds.length,
      award_count: plan.awardIds.length,
      awards_micros: plan.awardsMicros,
      gross_micros: plan.grossMicros,
      fees_micros: plan.feesMicros,
      clawbacks_netted_micros: plan.clawbacksNettedMicros,
      net_micros: plan.netMicros,
      transfer_status: transferStatus,
    })
    .returning<PayoutRow[]>('*');
  const payoutId = row!.id;
  const createdBy = `payout-run:${input.runId}`;
  const paid: { id: string; commission_micros: number; platform_fee_micros: number }[] = await trx('commissions')
    .whereIn('id', plan.commissionIds)
    .update({ status: 'paid', paid_at: trx.fn.now(), payout_id: payoutId }, ['id', 'commission_micros', 'platform_fee_micros']);
  for (const c of paid) {
    const micros = c.commission_micros + c.platform_fee_micros;
    if (micros === 0) continue;
    await appendLedgerEntry(trx, {
      orgId: input.orgId,
      entryType: 'payout',
      balanceDeltaMicros: -micros,
      reservedDeltaMicros: -micros,
      idempotencyKey: `payout:${payoutId}:${c.id}`,
      commissionId: c.id,
      externalRef: payoutId,
      memo: 'commission paid to the creator + platform fee',
      createdBy,
    });
  }
  await markAwardsPaid(trx, plan.awardIds, payoutId);
  for (const a of awards) {
    if (a.amount_micros === 0) continue;
    await appendLedgerEntry(trx, {
      orgId: input.orgId,
      entryType: 'payout',
      balanceDeltaMicros: -a.amount_micros,
      reservedDeltaMicros: -a.amount_micros,
      idempotencyKey: `payout:${payoutId}:bonus:${a.award_id}`,
      bonusAwardId: a.award_id,
      externalRef: payoutId,
      memo: 'bonus award paid to the creator',
      createdBy,
    });
  }
  for (const r of plan.recoveries) {
    await trx('clawbacks').where('id', r.clawbackId).increment('recovered_micros', r.micros);
  }
  // Line by line for the creator's statement (api/creator-portal/statements.tsx).
  if (plan.recoveries.length > 0) {
    await trx('payout_clawback_recoveries').insert(
      plan.recoveries.map((r) => ({ payout_id: payoutId, clawback_id: r.clawbackId, micros: r.micros })),
    );
  }
  // The creator hears of a payout when its money moved (db/payout-transfers.ts recordTransfer); one with nothing to
  // send is settled now, so its statement item is written now.
  if (transferStatus === 'settled')
    await addPayoutDigestItem(trx, { creatorId: plan.creatorId, orgId: input.orgId, payoutId, kind: 'payout_sent', amountMicros: 0 });
  if (plan.clawbacksNettedMicros > 0) {
    await appendLedgerEntry(trx, {
      orgId: input.orgId,
      entryType: 'clawback',
      balanceDeltaMicros: plan.clawbacksNettedMicros,
      reservedDeltaMicros: 0,
      idempotencyKey: `clawback:${payoutId}`,
      externalRef: payoutId,
      memo: "clawbacks netted from the creator's payout",
      createdBy,
    });
  }
  return { ...plannedPayout(plan, awards), payout_id: payoutId, transfer_status: transferStatus };
}

/** A plan as a dry run shows it: nothing recorded. */
export function plannedPayout(p: CreatorPayoutPlan, awards: AwardLine[]): CreatorPayout {
  return {
    creator_id: p.creatorId,
    payout_id: null,
    commission_count: p.commissionIds.length,
    gross_micros: p.grossMicros,
    fees_micros: p.feesMicros,
    clawbacks_netted_micros: p.clawbacksNettedMicros,
    net_micros: p.netMicros,
    award_count: p.awardIds.length,
    awards_micros: p.awardsMicros,
    awards,
    transfer_status: null,
    failure: null,
  };
}

function recorded(r: PayoutRow, awards: PayableAward[]): CreatorPayout {
  return {
    creator_id: r.creator_id,
    payout_id: r.id,
    commission_count: r.commission_count,
    gross_micros: r.gross_micros,
    fees_micros: r.fees_micros,
    clawbacks_netted_micros: r.clawbacks_netted_micros,
    net_micros: r.net_micros,
    award_count: r.award_count,
    awards_micros: Number(r.awards_micros),
    awards: awards.map(awardLine),
    transfer_status: r.transfer_status,
    failure: r.failure,
  };
}

export const awardLine = (a: PayableAward): AwardLine => ({
  award_id: a.id,
  bonus_rule_id: a.bonus_rule_id,
  campaign_id: a.campaign_id,
  threshold_conversions: a.threshold_conversions,
  amount_micros: a.amount_micros,
});
