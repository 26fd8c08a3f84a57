// Milestone bonuses: when a creator's production, non-refunded conversions in a campaign reach a rule's threshold,
// an award is created once (unique per rule and creator) and waits in `earned` for review. Lists are filtered by the
// granted organizations; approving reserves the award's amount in the wallet ledger once, voiding an approved award
// releases it, and a payout run (db/payouts.ts) pays approved awards and marks them `paid`. These are the reads; the
// writes (awarding, reviewing, paying, flagging after a refund) are db/bonus-awards-writes.ts.
import type { Knex } from 'knex';

/** Production conversions of the creator in the campaign with at least one paid period whose commission stands. */
export function qualifyingConversions(trx: Knex | Knex.Transaction, campaignId: string, creatorId: string) {
  return trx('conversions')
    .where({ campaign_id: campaignId, creator_id: creatorId, environment: 'PRODUCTION', attributed: true })
    .whereExists((q) => {
      void q
        .select(trx.raw('1'))
        .from('commissions as c')
        .whereRaw('c.conversion_id = conversions.id')
        .andWhere('c.kind', 'earn')
        .andWhere('c.campaign_id', campaignId)
        .andWhere('c.creator_id', creatorId)
        .whereNull('c.reversed_at');
    })
    .count('* as count');
}

/** A creator's progress towards the campaign's milestones (the count its awards compare with the thresholds). */
export async function milestoneProgress(db: Knex, campaignId: string, creatorId: string): Promise<number> {
  const row = await qualifyingConversions(db, campaignId, creatorId).first<{ count: string | number } | undefined>();
  return Number(row?.count ?? 0);
}

export interface BonusAwardView {
  id: string;
  org_id: string;
  campaign_id: string;
  campaign_name: string;
  bonus_rule_id: string;
  status: string;
  amount_micros: number;
  threshold_conversions: number;
  progress_count: number;
  fraud_flags: unknown;
  earned_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  review_note: string | null;
  paid_at: Date | null;
  payout_id: string | null;
  creator_id: string;
  creator_name: string;
  creator_social_handle: string | null;
}

const awardQuery = (db: Knex) =>
  db('bonus_awards as b')
    .join('creators as cr', 'cr.id', 'b.creator_id')
    .join('campaigns as c', 'c.id', 'b.campaign_id')
    .select<BonusAwardView[]>(
      'b.id',
      'b.org_id',
      'b.campaign_id',
      'c.name as campaign_name',
      'b.bonus_rule_id',
      'b.status',
      'b.amount_micros',
      'b.threshold_conversions',
      'b.progress_count',
      'b.fraud_flags',
      'b.earned_at',
      'b.reviewed_at',
      'b.reviewed_by',
      'b.review_note',
      'b.paid_at',
      'b.payout_id',
      'cr.id as creator_id',
      'cr.name as creator_name',
      'cr.social_handle as creator_social_handle',
    );

export async function listBonusAwards(
  db: Knex,
  orgIds: readonly string[],
  f: { status?: string; campaignId?: string } = {},
): Promise<BonusAwardView[]> {
  if (orgIds.length === 0) return [];
  const q = awardQuery(db)
    .whereIn('b.org_id', orgIds)
    .orderBy([
      { column: 'b.earned_at', order: 'desc' },
      { column: 'b.id', order: 'asc' },
    ]);
  if (f.status) void q.where('b.status', f.status);
  if (f.campaignId) void q.where('b.campaign_id', f.campaignId);
  return q;
}

export async function findBonusAward(db: Knex, id: string): Promise<BonusAwardView | undefined> {
  const rows = await awardQuery(db).where('b.id', id);
  return rows[0];
}

export interface PayableAward {
  id: string;
  creator_id: string;
  bonus_rule_id: string;
  campaign_id: string;
  threshold_conversions: number;
  amount_micros: number;
}

/**
 * The one rule for an award a payout run may pay: approved, and every refund flagged after the approval reviewed.
 * The run (approvedAwardsToPay), the payable figures (db/creator-balances.ts) and the creator's own (db/creator-owed.ts,
 * every organization: no `orgId`) all read it.
 */
export function payableAwards(q: Knex.QueryBuilder, orgId?: string): Knex.QueryBuilder {
  return q
    .where(
      orgId === undefined ? { 'bonus_awards.status': 'approved' } : { 'bonus_awards.org_id': orgId, 'bonus_awards.status': 'approved' },
    )
    .whereRaw(`jsonb_array_length(coalesce(fraud_flags->'refunds', '[]'::jsonb)) <= coalesce((fraud_flags->>'refunds_reviewed')::int, 0)`);
}

/**
 * The organization's approved awards a payout run pays (oldest first), locked when the run pays: an award a refund
 * flagged after approval waits for its reviewer (keep or void) first.
 */
export async function approvedAwardsToPay(trx: Knex.Transaction, orgId: string, lock: boolean): Promise<PayableAward[]> {
  const q = payableAwards(trx('bonus_awards'), orgId)
    .orderBy([{ column: 'earned_at' }, { column: 'id' }])
    .select<PayableAward[]>('id', 'creator_id', 'bonus_rule_id', 'campaign_id', 'threshold_conversions', 'amount_micros');
  const rows = await (lock ? q.forUpdate() : q);
  return rows.map((a) => ({ ...a, amount_micros: Number(a.amount_micros) }));
}

/** The award lines of payouts, by payout id (award age order). */
export async function awardsOfPayouts(db: Knex, payoutIds: readonly string[]): Promise<(PayableAward & { payout_id: string })[]> {
  if (payoutIds.length === 0) return [];
  const rows = await db('bonus_awards')
    .whereIn('payout_id', payoutIds)
    .orderBy([{ column: 'earned_at' }, { column: 'id' }])
    .select<(PayableAward & { payout_id: string })[]>(
      'id',
      'creator_id',
      'bonus_rule_id',
      'campaign_id',
      'threshold_conversions',
      'amount_micros',
      'payout_id',
    );
  return rows.map((a) => ({ ...a, amount_micros: Number(a.amount_micros) }));
}
