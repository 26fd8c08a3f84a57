// GET /dashboard/bonus-awards (?status=earned|approved|voided|paid, default earned): milestone bonus awards with the
// creator, the fraud-aware progress and any fraud flags. Owners and admins approve or void an `earned` award (and void
// an `approved` one until paid, or keep one a refund flagged) with
// POST /api/bonus-awards/{id}/review, the handler of the agent tool svc_review_bonus_award: approving reserves the
// amount in the wallet and is refused with 402 (shown with the way to the wallet) when the safe balance cannot
// cover it. Members see the list without the buttons (the REST answers them 403).
import { Router } from '@koa/router';
import { listBonusAwards, type BonusAwardView } from '../../db/bonus-awards.js';
import { needsReview, reviewDecisions, type ReviewDecision } from '../../lib/bonus-review.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { escapeHtml as e } from '../../lib/html.js';
import { formatUsd } from '../../lib/money.js';
import type { AppContext, RequestState } from '../context.js';
import { when } from './app-picker.js';
import { buttonForm, canManage, dashboardPage, orgLink, signedIn, type SignedIn } from './layout.js';

const STATES = ['earned', 'approved', 'voided', 'paid'] as const;

function flags(f: unknown): string {
  const entries = f && typeof f === 'object' ? Object.entries(f as Record<string, unknown>) : [];
  return entries.length ? entries.map(([k, v]) => `${e(k)}: ${e(typeof v === 'string' ? v : JSON.stringify(v))}`).join('<br>') : '<span class="muted">none</span>';
}

function awardRow(s: SignedIn, a: BonusAwardView, back: string): string {
  const decisions = canManage(s) ? reviewDecisions(a) : [];
  const label = (d: ReviewDecision) => (d === 'void' ? 'Void' : a.status === 'approved' ? 'Keep approved' : 'Approve');
  const actions = decisions.length
    ? decisions.map((d) => buttonForm(s, `/api/bonus-awards/${a.id}/review`, label(d), { returnTo: back, fields: { decision: d } })).join('')
    : a.review_note ? `<span class="muted">${e(a.review_note)}</span>` : '';
  return `<tr data-award="${e(a.id)}"><td>${e(a.creator_name)}${a.creator_social_handle ? ` <span class="muted">${e(a.creator_social_handle)}</span>` : ''}</td><td>${e(a.campaign_name)}</td><td>${formatUsd(Number(a.amount_micros))}</td><td>${a.progress_count} of ${a.threshold_conversions} qualifying conversions</td><td>${flags(a.fraud_flags)}</td><td class="award-status">${e(a.status)}${needsReview(a) ? ' <strong>(flagged by a refund: keep or void)</strong>' : ''}</td><td>${e(when(a.earned_at))}</td><td>${actions}</td></tr>`;
}

async function bonusAwardsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Bonus awards', '<p>You belong to no organization.</p>');
  const status = STATES.find((x) => x === ctx.query.status) ?? 'earned';
  const [awards, totals] = await Promise.all([listBonusAwards(ctx.deps.db, [s.orgId], { status }), getWalletTotals(ctx.deps.db, s.orgId)]);
  const here = (st: string) => orgLink(s, `/dashboard/bonus-awards?status=${st}`);
  const back = here(status);
  const tabs = `<nav aria-label="Award state">${STATES.map((st) => `<a href="${e(here(st))}"${st === status ? ' aria-current="page"' : ''}>${st}</a>`).join(' · ')}</nav>`;
  dashboardPage(ctx, s, 200, 'Bonus awards', `${tabs}
<p>Wallet safe balance: <strong id="safe-balance">${formatUsd(totals.safeAvailableMicros)}</strong>. Approving an award reserves its amount; when the safe balance cannot cover it the approval is refused: <a href="${e(orgLink(s, '/dashboard/wallet'))}">top up the wallet</a>.</p>
${canManage(s) ? '' : '<p class="muted">Owners and admins approve or void awards.</p>'}
${awards.length
    ? `<table id="awards"><thead><tr><th>Creator</th><th>Campaign</th><th>Amount</th><th>Progress</th><th>Fraud flags</th><th>State</th><th>Earned</th><th></th></tr></thead><tbody>${awards.map((a) => awardRow(s, a, back)).join('\n')}</tbody></table>`
    : `<p class="muted">No ${status} awards.</p>`}`);
}

export function bonusAwardsRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard/bonus-awards', bonusAwardsPage);
  return router;
}
