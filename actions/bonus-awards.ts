// A reviewer's decision on a milestone bonus award (approve, void, or keep one a refund flagged): one transaction
// under the organization lock (db/bonus-awards-writes.ts reviewBonusAward says the rules), then, after an approval
// reserved money, the auto-recharge check. The agent route (api/agent/bonus-awards.ts) translates only.
import type { Knex } from 'knex';
import { reviewBonusAward as review, type ReviewOutcome } from '../db/bonus-awards-writes.js';
import type { ReviewDecision } from '../lib/bonus-review.js';

export type { ReviewOutcome } from '../db/bonus-awards-writes.js';

export interface BonusReviewDeps {
  db: Knex;
  /** The auto-recharge check after an approval (api/recharge-check.ts); absent where none is due. */
  checkAutoRecharge?: (orgId: string) => Promise<void>;
}

export async function reviewBonusAward(
  deps: BonusReviewDeps,
  input: { id: string; decision: ReviewDecision; note?: string; reviewedBy: string },
): Promise<ReviewOutcome> {
  const outcome = await deps.db.transaction((trx) => review(trx, input));
  if (outcome.kind === 'reviewed' && input.decision === 'approve') await deps.checkAutoRecharge?.(outcome.orgId);
  return outcome;
}
