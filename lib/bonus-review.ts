// Which review decisions a bonus award still takes (docs/milestone-bonuses.md). `earned`: approve (reserves the
// amount) or void. `approved`: void until paid (releases the reservation); when a refund flagged it after approval
// (fraud_flags.refunds beyond fraud_flags.refunds_reviewed) it waits for a decision, and approving it again keeps it
// approved and marks the flags reviewed. `voided` and `paid` are final.

export type ReviewDecision = 'approve' | 'void';

export interface AwardReviewState {
  status: string;
  fraud_flags: unknown;
}

const refundFlags = (flags: unknown): { refunds: number; reviewed: number } => {
  const f = (flags && typeof flags === 'object' ? flags : {}) as { refunds?: unknown; refunds_reviewed?: unknown };
  return {
    refunds: Array.isArray(f.refunds) ? f.refunds.length : 0,
    reviewed: typeof f.refunds_reviewed === 'number' ? f.refunds_reviewed : 0,
  };
};

/** An approved award a refund flagged that no reviewer has decided on yet: a payout run leaves it unpaid. */
export function needsReview(a: AwardReviewState): boolean {
  const { refunds, reviewed } = refundFlags(a.fraud_flags);
  return a.status === 'approved' && refunds > reviewed;
}

/** The flags as they are once a reviewer kept the award approved: every refund so far counted as reviewed. */
export function flagsReviewed(flags: unknown): number {
  return refundFlags(flags).refunds;
}

export function reviewDecisions(a: AwardReviewState): ReviewDecision[] {
  if (a.status === 'earned') return ['approve', 'void'];
  if (a.status === 'approved') return needsReview(a) ? ['approve', 'void'] : ['void'];
  return [];
}
