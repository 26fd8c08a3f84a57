// Payout runs, phase 1 (docs/wallet-and-payouts.md "Two phases"): one organization's payable commissions and
// approved bonus awards are paid to their creators, clawbacks netted, in ONE short transaction under the organization
// lock, so a refund racing the run sees each commission either before it (still payable: the clawback is netted now)
// or after it (paid: the clawback waits for the next run). Each payout is left `transfer_pending`; phase 2 (the
// payout-run workflow, db/payout-transfers.ts) sends it. A creator whose net is below the organization's minimum
// payout is held over. Idempotent per run id: a run id already used answers what that run paid and pays nothing.
// Called by `svc payouts run`, the wallet page and the payout-run workflow. Never reachable by an agent.
import type { Knex } from 'knex';
import { ConflictError } from '../lib/errors.js';
import { planPayouts, type CreatorPayoutPlan, type OutstandingClawback, type PayableCommission } from '../lib/payouts.js';
import type { PayoutRow } from '../schema/types.js';
import { readyCreators } from './payout-accounts.js';
import { minimumPayoutMicros } from './payout-settings.js';
import { approvedAwardsToPay, awardsOfPayouts, markAwardsPaid, type PayableAward } from './bonus-awards.js';
import { addPayoutDigestItem } from './creator-digests.js';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger.js';

export interface PayoutRunInput {
  orgId: string;
  runId: string;
  dryRun?: boolean;
  createdBy?: string;
  /** Hold over creators without a ready payout account (scheduled runs); otherwise phase 2 returns their payouts. */
  readyOnly?: boolean;
}

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
}

export interface PayoutRunResult {
  run_id: string;
  org_id: string;
  dry_run: boolean;
  /** The run id was used before: these are what that run paid; nothing was paid now. */
  already_run: boolean;
  payouts: CreatorPayout[];
  totals: { gross_micros: number; fees_micros: number; clawbacks_netted_micros: number; net_micros: number };
}

export async function runPayouts(db: Knex, input: PayoutRunInput): Promise<PayoutRunResult> {
  return db.transaction(async (trx) => {
    // A dry run reads without the lock: it writes nothing and may be a moment stale.
    if (!input.dryRun) await lockOrganization(trx, input.orgId);
    const previous = await trx('payout_runs').where('id', input.runId).first<{ org_id: string } | undefined>('org_id');
    if (previous) {
      if (previous.org_id !== input.orgId) throw new ConflictError(`payout run ${input.runId} belongs to another organization`);
      const rows = await trx('payouts').where('run_id', input.runId).orderBy('creator_id').select<PayoutRow[]>('*');
      const lines = await awardsOfPayouts(
        trx,
        rows.map((r) => r.id),
      );
      return result(
        input,
        true,
        rows.map((r) =>
          recorded(
            r,
            lines.filter((l) => l.payout_id === r.id),
          ),
        ),
      );
    }
    const lock = !input.dryRun;
    const awards = await approvedAwardsToPay(trx, input.orgId, lock);
    const minimum = await minimumPayoutMicros(trx, input.orgId);
    let plans = planPayouts(
      await payableCommissions(trx, input.orgId, lock),
      await outstandingClawbacks(trx, input.orgId, lock),
      awards.map((a) => ({ id: a.id, creatorId: a.creator_id, amountMicros: a.amount_micros })),
    ).filter((p) => p.netMicros >= minimum);
    const ready = input.readyOnly
      ? await readyCreators(
          trx,
          plans.map((p) => p.creatorId),
        )
      : undefined;
    if (ready) plans = plans.filter((p) => ready.has(p.creatorId));
    const linesOf = (p: CreatorPayoutPlan) => awards.filter((a) => p.awardIds.includes(a.id)).map(awardLine);
    if (input.dryRun)
      return result(
        input,
        false,
        plans.map((p) => planned(p, null, linesOf(p))),
      );
    await trx('payout_runs').insert({ id: input.runId, org_id: input.orgId, created_by: input.createdBy ?? null });
    const payouts: CreatorPayout[] = [];
    for (const plan of plans) payouts.push(await pay(trx, input, plan, linesOf(plan)));
    return result(input, false, payouts);
  });
}

async function payableCommissions(trx: Knex.Transaction, orgId: string, lock: boolean): Promise<PayableCommission[]> {
  const q = trx('commissions')
    .where({ org_id: orgId, status: 'payable', kind: 'earn', environment: 'PRODUCTION' })
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

async function outstandingClawbacks(trx: Knex.Transaction, orgId: string, lock: boolean): Promise<OutstandingClawback[]> {
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
async function pay(trx: Knex.Transaction, input: PayoutRunInput, plan: CreatorPayoutPlan, awards: AwardLine[]): Promise<CreatorPayout> {
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
  // The creator hears about it in their next digest (db/creator-digests.ts), written with the payout itself.
  await addPayoutDigestItem(trx, {
    creatorId: plan.creatorId,
    orgId: input.orgId,
    payoutId,
    kind: 'payout_sent',
    amountMicros: plan.netMicros,
  });
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
  return planned(plan, payoutId, awards);
}

function planned(p: CreatorPayoutPlan, payoutId: string | null, awards: AwardLine[]): CreatorPayout {
  return {
    creator_id: p.creatorId,
    payout_id: payoutId,
    commission_count: p.commissionIds.length,
    gross_micros: p.grossMicros,
    fees_micros: p.feesMicros,
    clawbacks_netted_micros: p.clawbacksNettedMicros,
    net_micros: p.netMicros,
    award_count: p.awardIds.length,
    awards_micros: p.awardsMicros,
    awards,
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
  };
}

export const awardLine = (a: PayableAward): AwardLine => ({
  award_id: a.id,
  bonus_rule_id: a.bonus_rule_id,
  campaign_id: a.campaign_id,
  threshold_conversions: a.threshold_conversions,
  amount_micros: a.amount_micros,
});

function result(input: PayoutRunInput, alreadyRun: boolean, payouts: CreatorPayout[]): PayoutRunResult {
  const sum = (k: keyof CreatorPayout) => payouts.reduce((s, p) => s + (p[k] as number), 0);
  return {
    run_id: input.runId,
    org_id: input.orgId,
    dry_run: input.dryRun ?? false,
    already_run: alreadyRun,
    payouts,
    totals: {
      gross_micros: sum('gross_micros'),
      fees_micros: sum('fees_micros'),
      clawbacks_netted_micros: sum('clawbacks_netted_micros'),
      net_micros: sum('net_micros'),
    },
  };
}
