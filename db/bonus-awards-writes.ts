// Milestone bonuses' writes (db/bonus-awards.ts says the life of an award; these run in the caller's transaction):
// awarding the milestones a creator reached, a reviewer's decision (actions/bonus-awards.ts), marking awards paid
// (a payout run) and voiding or flagging awards a refund put out of reach.
import type { Knex } from 'knex';
import { flagsReviewed, reviewDecisions, type ReviewDecision } from '../lib/bonus-review.js';
import { fundingOf } from '../lib/funding.js';
import { qualifyingConversions } from './bonus-awards.js';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger-writes.js';

/**
 * An award's fraud_flags at its creation: `{"signals": [{review_id, commission_id, signal, evidence}]}`, one entry per
 * signal of each open review of the creator's commissions in the campaign (a commission held or flagged and not yet
 * decided), beside the `refunds` a refund adds later; `{}` when there is none. The signals inform the award's own
 * review (approve or void, /bonus-awards/{award_id}/review); the commission's review stays the commission's.
 */
const OPEN_REVIEW_FLAGS_SQL = `(
      select case when count(*) = 0 then '{}'::jsonb else jsonb_build_object('signals', jsonb_agg(jsonb_build_object(
               'review_id', rv.id, 'commission_id', rv.commission_id, 'signal', sg->>'signal', 'evidence', sg->>'evidence')
               order by rv.created_at, rv.id, sg->>'signal')) end
        from commission_reviews rv cross join lateral jsonb_array_elements(rv.signals) sg
       where rv.org_id = k.org_id and rv.status = 'open' and rv.campaign_id = r.campaign_id and rv.creator_id = p.creator_id
    )`;

/**
 * Creates, in one statement, the awards of the campaign's active rules whose threshold a creator has reached: one
 * creator's after an earn, or every creator's when a rule was just saved (the caller holds the organization lock,
 * db/bonus-rules.ts says why). The unique (rule, creator) pair makes a repeat award nobody twice. Each new award
 * carries the signals of the creator's open commission reviews in the campaign (OPEN_REVIEW_FLAGS_SQL). Returns how
 * many awards are new.
 */
export async function awardReachedMilestones(trx: Knex.Transaction, c: { campaignId: string; creatorId?: string }): Promise<number> {
  const creator = c.creatorId ? 'and cv.creator_id = ?' : '';
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `
    insert into bonus_awards (bonus_rule_id, campaign_id, creator_id, org_id, amount_micros, threshold_conversions, progress_count,
                              fraud_flags)
    select r.id, r.campaign_id, p.creator_id, k.org_id, r.bonus_micros, r.threshold_conversions, p.progress,
           ${OPEN_REVIEW_FLAGS_SQL}
    from bonus_rules r
    join campaigns k on k.id = r.campaign_id
    join (select cv.creator_id, count(*)::int as progress from conversions cv
          where cv.campaign_id = ? ${creator} and cv.environment = 'PRODUCTION' and cv.attributed
            and exists (select 1 from commissions c where c.conversion_id = cv.id and c.kind = 'earn' and c.campaign_id = cv.campaign_id
                        and c.creator_id = cv.creator_id and c.reversed_at is null)
          group by cv.creator_id) p on p.progress >= r.threshold_conversions
    where r.campaign_id = ? and r.active
      -- an award already made is left as it is (and its flags are not read again at every earn)
      and not exists (select 1 from bonus_awards b where b.bonus_rule_id = r.id and b.creator_id = p.creator_id)
    on conflict (bonus_rule_id, creator_id) do nothing
    returning id`,
    [c.campaignId, ...(c.creatorId ? [c.creatorId] : []), c.campaignId],
  );
  return rows.length;
}

export type ReviewOutcome =
  | { kind: 'reviewed'; orgId: string }
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
  trx: Knex.Transaction,
  r: { id: string; decision: ReviewDecision; note?: string; reviewedBy: string },
): Promise<ReviewOutcome> {
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
    return { kind: 'reviewed', orgId: award.org_id };
  }
  if (award.status === 'approved') {
    await trx('bonus_awards')
      .where('id', r.id)
      .update({
        ...reviewed,
        fraud_flags: trx.raw(`jsonb_set(fraud_flags, '{refunds_reviewed}', to_jsonb(?::int))`, [flagsReviewed(award.fraud_flags)]),
      });
    return { kind: 'reviewed', orgId: award.org_id };
  }
  if (amount > 0 && fundingOf(safeAvailableMicros, amount) === 'unfunded')
    return { kind: 'insufficient', amountMicros: amount, safeAvailableMicros };
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
  return { kind: 'reviewed', orgId: award.org_id };
}

/** Marks the awards paid by `payoutId`. */
export async function markAwardsPaid(trx: Knex.Transaction, ids: readonly string[], payoutId: string): Promise<void> {
  if (ids.length > 0) await trx('bonus_awards').whereIn('id', ids).update({ status: 'paid', paid_at: trx.fn.now(), payout_id: payoutId });
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
    const reason =
      `conversion ${r.conversionId} refunded (event ${r.refundEventId}): ` +
      `progress ${progress} is below the threshold ${award.threshold_conversions}`;
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
