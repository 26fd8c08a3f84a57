// A person's decision on a review of a suspicious commission (CONTRACT "Review of suspicious commissions",
// docs/fraud-signals.md "Review"), from the agent API, the MCP tool or the dashboard: one transaction under the
// conversion's row lock, audited.
//  - approve: the commission follows its holding period (payable at once when it is over);
//  - void: a commission still held in the wallet is reversed and its reservation released, once; one already
//    payable or paid (a flag decided late) is taken back as a clawback, as a refund would be;
//  - a repeat of the decision answers the first; the other decision after one is a conflict.
import type { Knex } from 'knex';
import { findReview, type ReviewListItem } from '../db/commission-reviews.js';
import { approveCommission, lockReview, markVoided, recordReviewDecision } from '../db/commission-reviews-writes.js';
import { reverseCommission, standingOf } from '../db/commissions.js';
import { takeBackCommission } from '../db/commission-holding-writes.js';
import { lockOrganization } from '../db/wallet-ledger-writes.js';
import { notConfirmedDigestItem } from '../db/creator-digests.js';
import { appendAudit, type AuditEntry } from '../db/audit-log.js';
import { ConflictError, NotFoundError } from '../errors/http-errors.js';
import type { CommissionRow } from '../schema/types.js';

export type CommissionReviewDecision = 'approve' | 'void';

export interface DecideReviewInput {
  orgId: string;
  reviewId: string;
  decision: CommissionReviewDecision;
  note?: string | null;
  /** Who decided, as the audit log names actors. */
  actor: Pick<AuditEntry, 'actorType' | 'actorId' | 'requestId' | 'ip'>;
}

const STATUS_OF = { approve: 'approved', void: 'voided' } as const;

export const REVIEW_NOTE_MAX = 500;

/** The review after the decision (or as the first decision left it); NotFoundError, ConflictError. */
export async function decideReview(db: Knex, input: DecideReviewInput): Promise<ReviewListItem> {
  await db.transaction(async (trx) => {
    const locked = await lockReview(trx, input.orgId, input.reviewId);
    if (!locked) throw new NotFoundError('Review not found.');
    const { review, commission } = locked;
    const wanted = STATUS_OF[input.decision];
    if (review.status === wanted) return; // a repeat answers the first decision
    if (review.status !== 'open') throw new ConflictError(`This review was already ${review.status}; it cannot be ${wanted} now.`);
    if (input.decision === 'approve') await approveCommission(trx, commission);
    else await voidCommission(trx, commission);
    await recordReviewDecision(trx, review.id, { status: wanted, decidedBy: actorName(input.actor), note: input.note ?? null });
    await appendAudit(trx, {
      orgId: input.orgId,
      ...input.actor,
      action: `commission_review.${wanted}`,
      targetType: 'commission_review',
      targetId: review.id,
      details: { commission_id: commission.id, signals: review.signals.map((s) => s.signal), ...(input.note ? { note: input.note } : {}) },
    });
  });
  return (await findReview(db, input.orgId, input.reviewId))!;
}

async function voidCommission(trx: Knex.Transaction, c: CommissionRow): Promise<void> {
  await lockOrganization(trx, c.org_id);
  await markVoided(trx, c.id);
  // The creator hears it in their next digest, in neutral words (whatever happened to the money before).
  if (Number(c.commission_micros) > 0) await notConfirmedDigestItem(trx, c);
  if (c.reversed_at || c.status === 'reversed') return; // a refund took it back already: nothing is released twice
  if (c.status === 'reserved' || c.status === 'unfunded') {
    await reverseCommission(trx, c, c.purchase_event_id, 'voided after review');
    return;
  }
  // Released already (a flag decided after the holding period): the creator owes it back, as after a refund.
  await takeBackCommission(trx, { ...c, live: await standingOf(trx, c) }, c.purchase_event_id);
}

const actorName = (a: DecideReviewInput['actor']) => `${a.actorType}:${a.actorId ?? 'unknown'}`;
