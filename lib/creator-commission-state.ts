// What a creator is told about one commission (docs/creator-portal.md "Commission states"): the stored status plus
// reversed_at name one of six states, and the reason in words is derived from the facts as they are when the page is
// read (db/creator-portal.ts answers them): whether a clawback is still to be taken or was taken, and whether the
// creator has a payout account ready to be paid. Pure: the portal's lines and tests share it.
// A review (docs/fraud-signals.md "What the creator sees") adds two states from `review_state`: held for review reads
// "under review" and a void "voided", each with a neutral reason that never names the rule or its evidence; a flag
// or an approval shows nothing (the commission reads as its money status says).
import { formatUsd } from './money.js';
import { formatDate } from './dates.js';
import { NEUTRAL_REVIEW_REASON, NEUTRAL_VOID_REASON } from './fraud-signals/types.js';

export type CreatorCommissionState = 'held' | 'under_review' | 'unfunded' | 'payable' | 'paid' | 'reversed' | 'voided' | 'clawed_back';

export const STATE_LABEL: Record<CreatorCommissionState, string> = {
  held: 'Held',
  under_review: 'Under review',
  unfunded: 'Unfunded',
  payable: 'Payable',
  paid: 'Paid',
  reversed: 'Reversed',
  voided: 'Not confirmed',
  clawed_back: 'Clawed back',
};

export interface CommissionFacts {
  status: string;
  reversed_at: Date | string | null;
  payable_at: Date | string | null;
  paid_at: Date | string | null;
  payout_id: string | null;
  org_name: string;
  /** commissions.review_state: null, 'flagged', 'held', 'approved' or 'voided' (absent: never reviewed). */
  review_state?: string | null;
  /** What partial refunds after the release took back of it (micros; absent or 0 when none). */
  clawed_back_micros?: number;
  /** Of its clawbacks, what no payout has recovered yet (micros; absent or 0 when all was taken). */
  clawback_outstanding_micros?: number;
  /** The creator has a payout account ready for transfers (lib/payout-readiness.ts); absent: not known, taken as ready. */
  account_ready?: boolean;
}

const day = (d: Date | string | null) => (d ? formatDate(d) : 'a date to be set');

/** Where a clawback stands: still to be taken from a payout, or already taken. */
function takenFrom(c: CommissionFacts): string {
  return c.clawback_outstanding_micros ? 'taken from your next payout' : 'already taken back from a payout';
}

/** What a payable amount waits for. */
function payableWhy(c: CommissionFacts): string {
  return c.account_ready === false ? 'connect a payout account to be paid' : 'paid in the next payout run';
}

export function commissionState(c: CommissionFacts): { state: CreatorCommissionState; reason: string } {
  if (c.review_state === 'voided') {
    // Voided after release (a flag decided late) is taken back like a clawback: say where that stands, not why.
    const back = c.status === 'payable' || c.status === 'paid' ? ` The amount already released is ${takenFrom(c)}.` : '';
    return { state: 'voided', reason: `${NEUTRAL_VOID_REASON}${back}` };
  }
  if (c.review_state === 'held' && (c.status === 'reserved' || c.status === 'unfunded') && !c.reversed_at) {
    return { state: 'under_review', reason: NEUTRAL_REVIEW_REASON };
  }
  if (c.reversed_at && (c.status === 'payable' || c.status === 'paid')) {
    // A payable one is still paid by the next payout, which takes the clawback back from it (nets zero).
    return { state: 'clawed_back', reason: `The purchase was refunded after the commission was released; the amount is ${takenFrom(c)}.` };
  }
  const partly = c.clawed_back_micros
    ? ` A partial refund after the release took back ${formatUsd(c.clawed_back_micros)} of it, ${takenFrom(c)}.`
    : '';
  switch (c.status) {
    case 'reserved':
      return {
        state: 'held',
        reason: `Reserved from ${c.org_name}'s prepaid wallet at the purchase; held until ${day(c.payable_at)}, then payable.`,
      };
    case 'unfunded':
      return { state: 'unfunded', reason: `Waiting for ${c.org_name} to top up its wallet; held until ${day(c.payable_at)} once funded.` };
    case 'payable':
      return { state: 'payable', reason: `The holding period is over: ${payableWhy(c)}.${partly}` };
    case 'paid':
      return { state: 'paid', reason: `Paid on ${day(c.paid_at)}.${partly}` };
    default:
      return { state: 'reversed', reason: 'The purchase was refunded within the holding period: the reservation went back to the wallet.' };
  }
}
