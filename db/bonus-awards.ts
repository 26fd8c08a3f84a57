// Milestone bonuses: when a creator's production, non-refunded conversions in a campaign reach a rule's threshold,
// an award is created once (unique per rule and creator) and waits in `earned` for review. Lists are filtered by the
// granted organizations; approving reserves the award's amount in the wallet ledger once.
import type { Knex } from 'knex';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger.js';

/** Production conversions of the creator in the campaign with at least one paid period whose commission stands. */
function qualifyingConversions(trx: Knex.Transaction, campaignId: string, creatorId: string) {
  return trx('conversions').where({ campaign_id: campaignId, creator_id: creatorId, environment: 'PRODUCTION', attributed: true })
    .whereExists((q) => {
      void q.select(trx.raw('1')).from('commissions as c').whereRaw('c.conversion_id = conversions.id')
        .andWhere('c.kind', 'earn').andWhere('c.campaign_id', campaignId).andWhere('c.creator_id', creatorId).whereNull('c.reversed_at');
    })
    .count('* as count');
}

export async function countQualifyingConversions(trx: Knex.Transaction, campaignId: string, creatorId: string): Promise<number> {
  const row = await qualifyingConversions(trx, campaignId, creatorId).first<{ count: string } | undefined>();
  return Number(row?.count ?? 0);
}

/** Creates the awards whose threshold the creator has now reached; returns how many were new. */
export async function awardReachedMilestones(trx: Knex.Transaction, c: { campaignId: string; creatorId: string; orgId: string }): Promise<number> {
  const rules = await trx('bonus_rules').where({ campaign_id: c.campaignId, active: true })
    .select<{ id: string; threshold_conversions: number; bonus_micros: number }[]>('id', 'threshold_conversions', 'bonus_micros');
  if (rules.length === 0) return 0;
  const progress = await countQualifyingConversions(trx, c.campaignId, c.creatorId);
  let created = 0;
  for (const rule of rules.filter((r) => progress >= r.threshold_conversions)) {
    const rows = await trx('bonus_awards').insert({
      bonus_rule_id: rule.id, campaign_id: c.campaignId, creator_id: c.creatorId, org_id: c.orgId, amount_micros: rule.bonus_micros,
      threshold_conversions: rule.threshold_conversions, progress_count: progress,
    }).onConflict(['bonus_rule_id', 'creator_id']).ignore().returning('id');
    created += rows.length;
  }
  return created;
}

export interface BonusAwardView {
  id: string; org_id: string; campaign_id: string; campaign_name: string; bonus_rule_id: string; status: string;
  amount_micros: number; threshold_conversions: number; progress_count: number; fraud_flags: unknown;
  earned_at: Date; reviewed_at: Date | null; reviewed_by: string | null; review_note: string | null; paid_at: Date | null;
  creator_id: string; creator_name: string; creator_social_handle: string | null;
}

const awardQuery = (db: Knex) => db('bonus_awards as b')
  .join('creators as cr', 'cr.id', 'b.creator_id')
  .join('campaigns as c', 'c.id', 'b.campaign_id')
  .select<BonusAwardView[]>(
    'b.id', 'b.org_id', 'b.campaign_id', 'c.name as campaign_name', 'b.bonus_rule_id', 'b.status', 'b.amount_micros',
    'b.threshold_conversions', 'b.progress_count', 'b.fraud_flags', 'b.earned_at', 'b.reviewed_at', 'b.reviewed_by',
    'b.review_note', 'b.paid_at', 'cr.id as creator_id', 'cr.name as creator_name', 'cr.social_handle as creator_social_handle',
  );

export async function listBonusAwards(db: Knex, orgIds: readonly string[], f: { status?: string; campaignId?: string } = {}): Promise<BonusAwardView[]> {
  if (orgIds.length === 0) return [];
  const q = awardQuery(db).whereIn('b.org_id', orgIds).orderBy([{ column: 'b.earned_at', order: 'desc' }, { column: 'b.id', order: 'asc' }]);
  if (f.status) void q.where('b.status', f.status);
  if (f.campaignId) void q.where('b.campaign_id', f.campaignId);
  return q;
}

export async function findBonusAward(db: Knex, id: string): Promise<BonusAwardView | undefined> {
  const rows = await awardQuery(db).where('b.id', id);
  return rows[0];
}

export type ReviewOutcome =
  | { kind: 'reviewed' } | { kind: 'conflict'; status: string } | { kind: 'missing' }
  | { kind: 'insufficient'; amountMicros: number; safeAvailableMicros: number };

/**
 * Approve or void an award still in `earned` (before payout). Approval earmarks the amount in the wallet (a
 * `reserve` entry, migration 0007's ledger rules), written once per award under the organization's lock, and only
 * while the safe balance covers it (the wallet never goes below zero safe).
 */
export async function reviewBonusAward(db: Knex, r: { id: string; decision: 'approve' | 'void'; note?: string; reviewedBy: string }): Promise<ReviewOutcome> {
  return db.transaction(async (trx) => {
    const award = await trx('bonus_awards').where('id', r.id).forUpdate()
      .first<{ id: string; org_id: string; status: string; amount_micros: string | number } | undefined>('id', 'org_id', 'status', 'amount_micros');
    if (!award) return { kind: 'missing' };
    if (award.status !== 'earned') return { kind: 'conflict', status: award.status };
    const status = r.decision === 'approve' ? 'approved' : 'voided';
    const amount = Number(award.amount_micros);
    if (status === 'approved' && amount > 0) {
      const { safeAvailableMicros } = await lockOrganization(trx, award.org_id);
      if (safeAvailableMicros < amount) return { kind: 'insufficient', amountMicros: amount, safeAvailableMicros };
    }
    await trx('bonus_awards').where('id', r.id)
      .update({ status, reviewed_at: trx.fn.now(), reviewed_by: r.reviewedBy, review_note: r.note ?? null });
    if (status === 'approved' && amount > 0) {
      await appendLedgerEntry(trx, {
        orgId: award.org_id, entryType: 'reserve', balanceDeltaMicros: 0, reservedDeltaMicros: amount,
        idempotencyKey: `reserve:bonus:${award.id}`, bonusAwardId: award.id, memo: 'bonus approved', createdBy: r.reviewedBy,
      });
    }
    return { kind: 'reviewed' };
  });
}

export interface RefundedConversion { campaignId: string; creatorId: string; conversionId: string; refundEventId: string }

/**
 * Fraud-aware progress: after a refund took back a counted conversion, every unpaid award of that creator in the
 * campaign whose threshold is no longer reached is voided while still `earned`, or flagged for review when already
 * `approved` (its reservation stays until a human decides). The reason is recorded on the award.
 */
export async function reviewAwardsAfterRefund(trx: Knex.Transaction, r: RefundedConversion): Promise<{ voided: number; flagged: number }> {
  // One statement: the awards now out of reach, each with the progress that puts it there (a creator without awards,
  // the common case, costs no second read).
  const counted = qualifyingConversions(trx, r.campaignId, r.creatorId);
  const awards = await trx('bonus_awards').where({ campaign_id: r.campaignId, creator_id: r.creatorId }).whereIn('status', ['earned', 'approved'])
    .where('threshold_conversions', '>', counted).forUpdate()
    .select<{ id: string; status: string; threshold_conversions: number; progress: string }[]>('id', 'status', 'threshold_conversions', trx.raw('(?) as progress', [counted]));
  let voided = 0;
  let flagged = 0;
  for (const award of awards) {
    const progress = Number(award.progress);
    const reason = `conversion ${r.conversionId} refunded (event ${r.refundEventId}): progress ${progress} is below the threshold ${award.threshold_conversions}`;
    const refunds = trx.raw(`jsonb_set(fraud_flags, '{refunds}', coalesce(fraud_flags->'refunds', '[]'::jsonb) || ?::jsonb)`,
      [JSON.stringify([{ conversion_id: r.conversionId, purchase_event_id: r.refundEventId, progress, reason }])]);
    if (award.status === 'earned') {
      await trx('bonus_awards').where('id', award.id).update({
        status: 'voided', reviewed_at: trx.fn.now(), reviewed_by: 'system', review_note: `voided automatically: ${reason}`,
        progress_count: progress, fraud_flags: refunds,
      });
      voided++;
    } else {
      await trx('bonus_awards').where('id', award.id).update({ progress_count: progress, fraud_flags: refunds });
      flagged++;
    }
  }
  return { voided, flagged };
}
