// The writes of reviews (db/commission-reviews.ts reads them): a review raised again before a commission becomes
// payable, and a person's decision. Always in the caller's transaction; the caller holds the conversion's row lock
// (the conversion workflow's, or actions/commission-reviews.ts's), so a release, a refund and a decision on one
// commission never interleave.
import type { Knex } from 'knex';
import { mergeSignals, type ReviewDecision } from '../lib/fraud-signals/index.js';
import type { CommissionReviewRow, CommissionRow } from '../schema/types.js';
import { releaseDueCommissions } from './commission-holding-writes.js';

/**
 * A review raised before release: a new review, or the commission's open one gaining the new signals (once each) and
 * turning to hold when the new decision holds. The commission's review_state follows (held stays held).
 */
export async function raiseReviewBeforeRelease(trx: Knex.Transaction, c: CommissionRow, decision: ReviewDecision): Promise<void> {
  const had = await trx('commission_reviews').where('commission_id', c.id).forUpdate().first<CommissionReviewRow | undefined>();
  if (had && had.status !== 'open') return;
  const action = had?.action === 'hold' || decision.action === 'hold' ? 'hold' : 'flag';
  if (had) {
    const signals = mergeSignals(had.signals as ReviewDecision['signals'], decision.signals);
    const escalated = had.action === 'flag' && action === 'hold';
    await trx('commission_reviews')
      .where('id', had.id)
      .update({ action, signals: JSON.stringify(signals), ...(escalated ? { escalated_at: trx.fn.now() } : {}) });
  } else {
    await trx('commission_reviews').insert({
      commission_id: c.id,
      org_id: c.org_id,
      app_id: c.app_id,
      campaign_id: c.campaign_id,
      creator_id: c.creator_id,
      action,
      signals: JSON.stringify(decision.signals),
      raised_at_step: 'release',
    });
  }
  await trx('commissions')
    .where('id', c.id)
    .update({ review_state: action === 'hold' ? 'held' : 'flagged' });
}

/** The review locked, with its commission (null: no such review in this organization). */
export async function lockReview(
  trx: Knex.Transaction,
  orgId: string,
  reviewId: string,
): Promise<{ review: CommissionReviewRow; commission: CommissionRow } | null> {
  const owner = await trx('commission_reviews as r')
    .join('commissions as c', 'c.id', 'r.commission_id')
    .where({ 'r.id': reviewId, 'r.org_id': orgId })
    .first<{ conversion_id: string } | undefined>('c.conversion_id');
  if (!owner) return null;
  // The conversion's row first: the lock its workflow takes to release or take back (same order, no deadlock).
  await trx('conversions').where('id', owner.conversion_id).forUpdate().first('id');
  const review = await trx('commission_reviews').where({ id: reviewId, org_id: orgId }).forUpdate().first<CommissionReviewRow>();
  if (!review) return null;
  const commission = await trx('commissions').where('id', review.commission_id).forUpdate().first<CommissionRow>();
  return { review, commission };
}

export async function recordReviewDecision(
  trx: Knex.Transaction,
  reviewId: string,
  d: { status: 'approved' | 'voided'; decidedBy: string; note: string | null },
): Promise<void> {
  await trx('commission_reviews')
    .where('id', reviewId)
    .update({ status: d.status, decided_by: d.decidedBy, note: d.note, decided_at: trx.fn.now() });
}

/**
 * An approved commission: its review state, then released as its conversion's workflow releases (payable at once
 * when its holding period is over and it is reserved; else its release stays set for its date).
 */
export async function approveCommission(trx: Knex.Transaction, c: Pick<CommissionRow, 'id' | 'conversion_id'>): Promise<boolean> {
  await trx('commissions').where('id', c.id).update({ review_state: 'approved' });
  return (await releaseDueCommissions(trx, c.conversion_id, c.id)) > 0;
}

export async function markVoided(trx: Knex.Transaction, commissionId: string): Promise<void> {
  await trx('commissions').where('id', commissionId).update({ review_state: 'voided' });
}
