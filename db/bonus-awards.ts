// Milestone bonuses: when a creator's production, non-refunded conversions in a campaign reach a rule's threshold,
// an award is created once (unique per rule and creator) and waits in `earned` for review. Lists are filtered by the
// granted organizations; approving reserves the award's amount in the wallet ledger once, voiding an approved award
// releases it, and a payout run (db/payouts.ts) pays approved awards and marks them `paid`.
import type { Knex } from 'knex';
import { flagsReviewed, reviewDecisions, type ReviewDecision } from '../lib/bonus-review.js';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger.js';

/** Production conversions of the creator in the campaign with at least one paid period whose commission stands. */
function qualifyingConversions(trx: Knex | Knex.Transaction, campaignId: string, creatorId: string) {
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

/**
 * Creates, in one statement, the awards of the campaign's active rules whose threshold a creator has reached: one
 * creator's after an earn, or every creator's when a rule was just saved (the caller holds the organization lock,
 * db/bonus-rules.ts says why). The unique (rule, creator) pair makes a repeat award nobody twice. Returns how many
 * awards are new.
 */
export async function awardReachedMilestones(trx: Knex.Transaction, c: { campaignId: string; creatorId?: string }): Promise<number> {
  const creator = c.creatorId ? 'and cv.creator_id = ?' : '';
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `
    insert into bonus_awards (bonus_rule_id, campaign_id, creator_id, org_id, amount_micros, threshold_conversions, progress_count)
    select r.id, r.campaign_id, p.creator_id, k.org_id, r.bonus_micros, r.threshold_conversions, p.progress
    from bonus_rules r
    join campaigns k on k.id = r.campaign_id
    join (select cv.creator_id, count(*)::int as progress from conversions cv
          where cv.campaign_id = ? ${creator} and cv.environment = 'PRODUCTION' and cv.attributed
            and exists (select 1 from commissions c where c.conversion_id = cv.id and c.kind = 'earn' and c.campaign_id = cv.campaign_id
                        and c.creator_id = cv.creator_id and c.reversed_at is null)
          group by cv.creator_id) p on p.progress >= r.threshold_conversions
    where r.campaign_id = ? and r.active
    on conflict (bonus_rule_id, creator_id) do nothing
    returning id`,
    [c.campaignId, ...(c.creatorId ? [c.creatorId] : []), c.campaignId],
  );
  return rows.length;
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

export type ReviewOutcome =
  | { kind: 'reviewed' }
  | { kind: 'conflict'; status: string }
  | { kind: 'missing' }
  | { kind: 'insufficient'; amountMicros: number; safeAvailableMicros: number };

/**
 * Review (lib/bonus-review.ts says which decisions a state takes). Approving an `earned` award earmarks its amount in
 * the wallet (a `reserve` entry, migration 0007's ledger rules) only while the safe balance covers it (the wallet
 * never goes below zero safe); voiding an `approved` one releases that reservation in the same transaction;
 * approving an approved award a refund flagged keeps it approved and marks the flags reviewed. The organization
 * lock is taken before the award's row, the order of a payout run and of a refund, so they cannot deadlock.
 */
export async function reviewBonusAward(
  db: Knex,
  r: { id: string; decision: ReviewDecision; note?: string; reviewedBy: string },
): Promise<ReviewOutcome> {
  return db.transaction(async (trx) => {
    const owner = await trx('bonus_awards').where('id', r.id).first<{ org_id: string } | undefined>('org_id');
    if (!owner) return { kind: 'missing' };
    const { safeAvailableMicros } = await lockOrganization(trx, owner.org_id);
    // Awards are never deleted: the row read above is still there.
    const award = await trx('bonus_awards')
      .where('id', r.id)
      .forUpdate()
      .first<{ id: string; org_id: string; status: string; amount_micros: string | number; fraud_flags: unknown }>(
        'id',
        'org_id',
        'status',
        'amount_micros',
        'fraud_flags',
      );
    if (!reviewDecisions(award).includes(r.decision)) return { kind: 'conflict', status: award.status };
    const amount = Number(award.amount_micros);
    const reviewed = { reviewed_at: trx.fn.now(), reviewed_by: r.reviewedBy, review_note: r.note ?? null };
    const ledger = { orgId: award.org_id, balanceDeltaMicros: 0, bonusAwardId: award.id, createdBy: r.reviewedBy };
    if (r.decision === 'void') {
      await trx('bonus_awards')
        .where('id', r.id)
        .update({ status: 'voided', ...reviewed });
      if (award.status === 'approved' && amount > 0) {
        await appendLedgerEntry(trx, {
          ...ledger,
          entryType: 'release',
          reservedDeltaMicros: -amount,
          idempotencyKey: `release:bonus:${award.id}`,
          memo: 'bonus voided after approval',
        });
      }
      return { kind: 'reviewed' };
    }
    if (award.status === 'approved') {
      await trx('bonus_awards')
        .where('id', r.id)
        .update({
          ...reviewed,
          fraud_flags: trx.raw(`jsonb_set(fraud_flags, '{refunds_reviewed}', to_jsonb(?::int))`, [flagsReviewed(award.fraud_flags)]),
        });
      return { kind: 'reviewed' };
    }
    if (amount > 0 && safeAvailableMicros < amount) return { kind: 'insufficient', amountMicros: amount, safeAvailableMicros };
    await trx('bonus_awards')
      .where('id', r.id)
      .update({ status: 'approved', ...reviewed });
    if (amount > 0) {
      await appendLedgerEntry(trx, {
        ...ledger,
        entryType: 'reserve',
        reservedDeltaMicros: amount,
        idempotencyKey: `reserve:bonus:${award.id}`,
        memo: 'bonus approved',
      });
    }
    return { kind: 'reviewed' };
  });
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

/** Marks the awards paid by `payoutId`. */
export async function markAwardsPaid(trx: Knex.Transaction, ids: readonly string[], payoutId: string): Promise<void> {
  if (ids.length > 0) await trx('bonus_awards').whereIn('id', ids).update({ status: 'paid', paid_at: trx.fn.now(), payout_id: payoutId });
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

export interface RefundedConversion {
  campaignId: string;
  creatorId: string;
  conversionId: string;
  refundEventId: string;
}

/**
 * Fraud-aware progress: after a refund took back a counted conversion, every unpaid award of that creator in the
 * campaign whose threshold is no longer reached is voided while still `earned`, or flagged for review when already
 * `approved` (its reservation stays until a human decides). The reason is recorded on the award.
 */
export async function reviewAwardsAfterRefund(trx: Knex.Transaction, r: RefundedConversion): Promise<{ voided: number; flagged: number }> {
  // One statement: the awards now out of reach, each with the progress that puts it there (a creator without awards,
  // the common case, costs no second read).
  const counted = qualifyingConversions(trx, r.campaignId, r.creatorId);
  const awards = await trx('bonus_awards')
    .where({ campaign_id: r.campaignId, creator_id: r.creatorId })
    .whereIn('status', ['earned', 'approved'])
    .where('threshold_conversions', '>', counted)
    .forUpdate()
    .select<{ id: string; status: string; threshold_conversions: number; progress: string }[]>(
      'id',
      'status',
      'threshold_conversions',
      trx.raw('(?) as progress', [counted]),
    );
  let voided = 0;
  let flagged = 0;
  for (const award of awards) {
    const progress = Number(award.progress);
    const reason = `conversion ${r.conversionId} refunded (event ${r.refundEventId}): progress ${progress} is below the threshold ${award.threshold_conversions}`;
    const refunds = trx.raw(`jsonb_set(fraud_flags, '{refunds}', coalesce(fraud_flags->'refunds', '[]'::jsonb) || ?::jsonb)`, [
      JSON.stringify([{ conversion_id: r.conversionId, purchase_event_id: r.refundEventId, progress, reason }]),
    ]);
    if (award.status === 'earned') {
      await trx('bonus_awards')
        .where('id', award.id)
        .update({
          status: 'voided',
          reviewed_at: trx.fn.now(),
          reviewed_by: 'system',
          review_note: `voided automatically: ${reason}`,
          progress_count: progress,
          fraud_flags: refunds,
        });
      voided++;
    } else {
      await trx('bonus_awards').where('id', award.id).update({ progress_count: progress, fraud_flags: refunds });
      flagged++;
    }
  }
  return { voided, flagged };
}
