// GET /api/agent/bonus-awards and POST /api/agent/bonus-awards/{award_id}/review: milestone bonus awards of the
// granted organizations with the creator and progress (a campaign id of another organization is 404); review:
// approve or void an `earned` award, void an `approved` one until it is paid (lib/bonus-review.ts).
// The dashboard REST (api/dashboard/routes.ts, CREATOR_ROUTES) runs these same handlers for a signed-in owner or admin.
import { reviewBonusAward } from '../../actions/bonus-awards.js';
import { findBonusAward, listBonusAwards, type BonusAwardView } from '../../db/bonus-awards.js';
import { findCampaign } from '../../db/campaigns.js';
import { needsReview, reviewDecisions, type ReviewDecision } from '../../lib/bonus-review.js';
import { bonusApprovalRefusal } from './escrow-refusals.js';
import { ConflictError, NotFoundError, PaymentRequiredError } from '../../errors/http-errors.js';
import { microsToUsd } from '../../lib/money.js';
import { checkAutoRecharge } from '../recharge-check.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { reviewDecisionBody } from './field-schemas.js';
import { nextAction } from './next-action.js';
import { actorIdOf, assertMayDecideMoney, orgIdsOf, visibleTo } from './principal.js';

const STATUSES = ['earned', 'approved', 'voided', 'paid'] as const;

export const listBonusAwardsQuery = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: [...STATUSES], description: 'Only awards in this state (default: all)' },
    campaign_id: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

export const reviewBonusAwardBody = reviewDecisionBody(
  "An 'earned' award: approve (reserves the amount in the wallet; 402 when the safe balance cannot cover it) or void. An " +
    "'approved' award: void until it is paid (releases its reservation); when a refund flagged it (needs_review), approve " +
    "keeps it approved. 'voided' and 'paid' are final: 409 naming the state. The award's review_decisions lists what it takes now.",
  { maxLength: 2000 },
);

function awardView(a: BonusAwardView) {
  const amount = Number(a.amount_micros);
  return {
    id: a.id,
    org_id: a.org_id,
    campaign_id: a.campaign_id,
    campaign_name: a.campaign_name,
    bonus_rule_id: a.bonus_rule_id,
    status: a.status,
    amount_usd: microsToUsd(amount),
    amount_micros: amount,
    creator: { id: a.creator_id, name: a.creator_name, social_handle: a.creator_social_handle },
    progress: {
      qualifying_conversions: a.progress_count,
      threshold_conversions: a.threshold_conversions,
      reached: a.progress_count >= a.threshold_conversions,
    },
    fraud_flags: a.fraud_flags,
    earned_at: a.earned_at,
    reviewed_at: a.reviewed_at,
    reviewed_by: a.reviewed_by,
    review_note: a.review_note,
    paid_at: a.paid_at,
    payout_id: a.payout_id,
    // An approved award a refund flagged waits for a reviewer: approve again to keep it, or void it.
    needs_review: needsReview(a),
    review_decisions: reviewDecisions(a),
  };
}

export async function listBonusAwardsHandler(ctx: AppContext): Promise<void> {
  const q = inputOf<{ status?: string; campaign_id?: string }>(ctx);
  if (q.campaign_id) visibleTo(ctx, await findCampaign(ctx.deps.db, q.campaign_id), 'Campaign');
  const rows = await listBonusAwards(ctx.deps.db, orgIdsOf(ctx), { status: q.status, campaignId: q.campaign_id });
  ctx.body = { bonus_awards: rows.map(awardView), count: rows.length };
}

function conflictDetail(status: string, decision: ReviewDecision): string {
  if (status === 'approved' && decision === 'approve') return "Bonus award is 'approved' already: it can still be voided until it is paid.";
  return (
    `Bonus award is '${status}': its review is final (an 'earned' award ` +
    `can be approved or voided, an 'approved' one voided until it is paid).`
  );
}

export async function reviewBonusAwardHandler(ctx: AppContext): Promise<void> {
  const id = ctx.params.award_id as string;
  const found = visibleTo(ctx, await findBonusAward(ctx.deps.db, id), 'Bonus award');
  await assertMayDecideMoney(ctx, found.org_id);
  const input = inputOf<{ decision: ReviewDecision; note?: string }>(ctx);
  const outcome = await reviewBonusAward(
    { db: ctx.deps.db, checkAutoRecharge: (orgId) => checkAutoRecharge(ctx, orgId) },
    { id, decision: input.decision, note: input.note, reviewedBy: actorIdOf(ctx) },
  );
  if (outcome.kind === 'missing') throw new NotFoundError('Bonus award not found');
  if (outcome.kind === 'insufficient')
    throw new PaymentRequiredError(bonusApprovalRefusal(outcome.amountMicros, outcome.safeAvailableMicros)).pointingAt(
      nextAction('svc_get_wallet_topup_link'),
    );
  if (outcome.kind === 'conflict') throw new ConflictError(conflictDetail(outcome.status, input.decision));
  ctx.body = awardView((await findBonusAward(ctx.deps.db, id))!);
}
