// Reviews of suspicious commissions (CONTRACT.md "Review of suspicious commissions", docs/fraud-signals.md):
// GET /api/agent/reviews lists the granted organizations' reviews (held open ones first, then newest first), each
// with its signals and their evidence in words; POST /api/agent/reviews/{review_id}/review approves or voids one
// (actions/commission-reviews.ts decides, audits and moves the money). Where the contract is silent:
//  - `status` left out lists every review (open, approved and voided), as the bonus-award list does;
//  - the filters `signal` (one of FRAUD_SIGNALS, else 422), `creator_id`, `app_id` (another organization's app is
//    404) and `action` (hold or flag) narrow the list; `limit` caps it (default and most REVIEW_LIST_LIMIT);
//  - a review of another organization is 404 like an unknown id (ids cannot be probed);
//  - the answer adds `app_id`, `action`, `commission_status`, `review_state`, `payable_at`, `raised_at_step`,
//    `decided_at`, `decided_by`, `note` and the creator's, campaign's and app's names: no secret (evidence names none).
import { decideReview, REVIEW_NOTE_MAX, type CommissionReviewDecision, type DecideReviewInput } from '../../actions/commission-reviews.js';
import { findApp } from '../../db/apps.js';
import { findReview, listReviews, REVIEW_LIST_LIMIT, type ReviewFilter, type ReviewListItem } from '../../db/commission-reviews.js';
import { FRAUD_SIGNALS } from '../../lib/fraud-signals/index.js';
import { microsToUsd } from '../../lib/money.js';
import { REVIEW_ACTIONS, REVIEW_STATUSES, type ReviewStatus } from '../../schema/types.js';
import { NotFoundError, UnauthorizedError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { reviewDecisionBody } from './field-schemas.js';
import { assertMayDecideMoney, orgIdsOf, visibleTo } from './principal.js';

const id = (description: string) => ({ type: 'string', minLength: 1, maxLength: 64, description }) as const;

export const listReviewsQuery = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: [...REVIEW_STATUSES], description: 'Only reviews in this state (default: all)' },
    signal: { type: 'string', enum: [...FRAUD_SIGNALS], description: 'Only reviews that raised this signal' },
    creator_id: id("Only this creator's reviews"),
    app_id: id("Only this app's reviews (another organization's app is not found)"),
    action: {
      type: 'string',
      enum: [...REVIEW_ACTIONS],
      description: 'hold: the commission waits for the decision; flag: shown for a look, paid as usual',
    },
    limit: { type: 'integer', minimum: 1, maximum: REVIEW_LIST_LIMIT, default: REVIEW_LIST_LIMIT },
  },
} as const;

export const reviewCommissionBody = reviewDecisionBody(
  "approve: the commission follows its holding period (payable at once when it is over). void: a held commission's " +
    'reservation is released once (one already payable or paid is taken back from the creator). A repeat of the ' +
    'decision answers the first; the other decision after one is 409.',
  { maxLength: REVIEW_NOTE_MAX, description: 'Why, kept with the decision and in the audit log' },
);

/** A review as the agent API, its tools and the dashboard answer it. */
export function reviewView(r: ReviewListItem) {
  const micros = Number(r.amount_micros);
  const signals = r.signals.map((s) => ({ signal: s.signal, evidence: s.evidence, ...(s.weak ? { weak: true } : {}) }));
  // The contract's fields first, in its order; then what the contract leaves open (the header above).
  const contract = {
    ...{ id: r.id, commission_id: r.commission_id, creator_id: r.creator_id, campaign_id: r.campaign_id },
    ...{ amount_usd: microsToUsd(micros), amount_micros: micros, status: r.status, signals, created_at: r.created_at },
  };
  return {
    ...contract,
    app_id: r.app_id,
    action: r.action,
    commission_status: r.commission_status,
    review_state: r.review_state,
    payable_at: r.payable_at,
    raised_at_step: r.raised_at_step,
    decided_at: r.decided_at,
    decided_by: r.decided_by,
    note: r.note,
    creator_name: r.creator_name,
    campaign_name: r.campaign_name,
    app_name: r.app_name,
  };
}

interface ListQuery {
  status?: ReviewStatus;
  signal?: string;
  creator_id?: string;
  app_id?: string;
  action?: ReviewFilter['action'];
  limit: number;
}

export async function listReviewsHandler(ctx: AppContext): Promise<void> {
  const q = inputOf<ListQuery>(ctx);
  if (q.app_id) visibleTo(ctx, await findApp(ctx.deps.db, q.app_id), 'App');
  const rows = await listReviews(ctx.deps.db, orgIdsOf(ctx), {
    status: q.status,
    signal: q.signal,
    creatorId: q.creator_id,
    appId: q.app_id,
    action: q.action,
    limit: q.limit,
  });
  ctx.body = { reviews: rows.map(reviewView), count: rows.length };
}

/** Who decides, as the audit log names actors: the agent (key or OAuth grant) or the signed-in user. */
function deciderOf(ctx: AppContext): DecideReviewInput['actor'] {
  const p = ctx.state.principal;
  const where = { requestId: ctx.state.requestId, ip: ctx.state.clientIp };
  if (p?.kind === 'agent') return { actorType: p.authMode, actorId: p.id, ...where };
  if (p?.kind === 'user') return { actorType: 'user', actorId: p.userId, ...where };
  throw new UnauthorizedError();
}

export async function reviewCommissionHandler(ctx: AppContext): Promise<void> {
  const reviewId = ctx.params.review_id as string;
  let orgId: string | undefined;
  for (const org of orgIdsOf(ctx)) if (!orgId && (await findReview(ctx.deps.db, org, reviewId))) orgId = org;
  if (!orgId) throw new NotFoundError('Review not found');
  await assertMayDecideMoney(ctx, orgId, 'approve or void commissions under review');
  const input = inputOf<{ decision: CommissionReviewDecision; note?: string }>(ctx);
  const review = await decideReview(ctx.deps.db, { orgId, reviewId, decision: input.decision, note: input.note, actor: deciderOf(ctx) });
  ctx.body = reviewView(review);
}
