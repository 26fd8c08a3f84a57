// GET /dashboard/bonus-awards (?status=earned|approved|voided|paid, default earned): milestone bonus awards with the
// creator, the fraud-aware progress and any fraud flags. Owners and admins approve or void an `earned` award (and void
// an `approved` one until paid, or keep one a refund flagged) with
// POST /api/bonus-awards/{id}/review, the handler of the agent tool svc_review_bonus_award: approving reserves the
// amount in the wallet and is refused with 402 (shown with the way to the wallet) when the safe balance cannot
// cover it. Members see the list without the buttons (the REST answers them 403).
import { ConfirmForm } from '../../view-kit/confirm.js';
import { EmptyState, StatePill } from '../../view-kit/visual.js';
import { DANGERS } from '../dangers.js';
import { listBonusAwards, type BonusAwardView } from '../../../db/bonus-awards.js';
import { getWalletTotals } from '../../../db/wallet-ledger.js';
import { needsReview, reviewDecisions, type ReviewDecision } from '../../../lib/bonus-review.js';
import { safeUrl } from '../../view-kit/html.js';
import { formatUsd } from '../../../lib/money.js';
import type { AppContext } from '../../context.js';
import { when } from '../apps/app-picker.js';
import { ButtonForm, canManage, dashboardPage, OrgLink, orgLink, Table, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

const STATES = ['earned', 'approved', 'voided', 'paid'] as const;

/** Fraud signals of the creator's open commission reviews when the award was made: each in words. */
const words = (v: unknown) => (typeof v === 'string' ? v : '');
const signalLines = (v: unknown): string[] | null =>
  Array.isArray(v)
    ? v.map((x: { signal?: unknown; evidence?: unknown }) => `${words(x?.signal).replace(/_/g, ' ')}: ${words(x?.evidence)}`)
    : null;

function Flags({ flags }: { flags: unknown }) {
  const entries = flags && typeof flags === 'object' ? Object.entries(flags as Record<string, unknown>) : [];
  if (!entries.length) return <span class="muted">none</span>;
  const lines = entries.flatMap(([k, v]) =>
    k === 'signals' ? (signalLines(v) ?? [`${k}: ${JSON.stringify(v)}`]) : [`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`],
  );
  return (
    <>
      {lines.map((line, i) => (
        <>
          {i > 0 ? <br /> : null}
          {line}
        </>
      ))}
    </>
  );
}

function AwardRow({ s, a, back }: { s: SignedIn; a: BonusAwardView; back: string }) {
  const review = `/api/bonus-awards/${a.id}/review`;
  const decisions = canManage(s) ? reviewDecisions(a) : [];
  const label = (d: ReviewDecision) => (d === 'void' ? 'Void' : a.status === 'approved' ? 'Keep approved' : 'Approve');
  const actions = decisions.length ? (
    decisions.map((d) =>
      d === 'void' ? (
        <ConfirmForm s={s} action={review} returnTo={back} fields={{ decision: d }} {...DANGERS.voidAward} />
      ) : (
        <ButtonForm s={s} action={review} label={label(d)} returnTo={back} fields={{ decision: d }} kind="primary" />
      ),
    )
  ) : a.review_note ? (
    <span class="muted">{a.review_note}</span>
  ) : null;
  return (
    <tr data-award={a.id}>
      <td>
        {a.creator_name}
        {a.creator_social_handle ? (
          <>
            {' '}
            <span class="muted">{a.creator_social_handle}</span>
          </>
        ) : null}
      </td>
      <td>{a.campaign_name}</td>
      <td>{formatUsd(Number(a.amount_micros))}</td>
      <td>
        {a.progress_count} of {a.threshold_conversions} qualifying conversions
      </td>
      <td>
        <Flags flags={a.fraud_flags} />
      </td>
      <td class="award-status">
        <StatePill state={a.status} />
        {needsReview(a) ? (
          <>
            {' '}
            <strong>(flagged by a refund: keep or void)</strong>
          </>
        ) : null}
      </td>
      <td>{when(a.earned_at)}</td>
      <td>{actions}</td>
    </tr>
  );
}

export async function bonusAwardsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Bonus awards', <p>You belong to no organization.</p>);
  const status = STATES.find((x) => x === ctx.query.status) ?? 'earned';
  const [awards, totals] = await Promise.all([listBonusAwards(ctx.deps.db, [s.orgId], { status }), getWalletTotals(ctx.deps.db, s.orgId)]);
  const here = (st: string) => `/dashboard/bonus-awards?status=${st}`;
  const back = orgLink(s, here(status));
  dashboardPage(
    ctx,
    s,
    200,
    'Bonus awards',
    <>
      <nav aria-label="Award state">
        {STATES.map((st, i) => (
          <>
            {i > 0 ? ' · ' : ''}
            <a href={safeUrl(orgLink(s, here(st)))} aria-current={st === status ? 'page' : undefined}>
              {st}
            </a>
          </>
        ))}
      </nav>
      <p>
        Wallet safe balance: <strong id="safe-balance">{formatUsd(totals.safeAvailableMicros)}</strong>. Approving an award reserves its
        amount; when the safe balance cannot cover it the approval is refused:{' '}
        <OrgLink s={s} to="/dashboard/wallet">
          top up the wallet
        </OrgLink>
        .
      </p>
      {canManage(s) ? null : <p class="muted">Owners and admins approve or void awards.</p>}
      {awards.length ? (
        <Table id="awards" columns={['Creator', 'Campaign', 'Amount', 'Progress', 'Fraud flags', 'State', 'Earned', '']}>
          {awards.map((a) => (
            <AwardRow s={s} a={a} back={back} />
          ))}
        </Table>
      ) : (
        <EmptyState id="awards-empty" title={`No ${status} awards.`}>
          {status === 'earned'
            ? 'An award is earned when a creator reaches a milestone bonus rule; set one on a campaign page.'
            : 'Awards reach this state from the earned list: open it to approve or void them.'}
        </EmptyState>
      )}
    </>,
  );
}
