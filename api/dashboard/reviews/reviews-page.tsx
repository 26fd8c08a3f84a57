// GET /dashboard/reviews: the organization's review queue of suspicious commissions (CONTRACT "Review of suspicious
// commissions", docs/fraud-signals.md "Review queue"): each review's creator, campaign, app, amount, state (held,
// flagged, approved, voided) and its evidence in words, filtered by signal, creator, app and status (a GET form;
// open by default). Owners and admins decide in bulk: the ticked rows and a decision post to
// POST /dashboard/reviews/decide, which without `confirmed=yes` only answers the confirmation step ("Approve 3
// commissions totalling $x?" with the list), whose own form carries `confirmed=yes` (the convention of
// api/view-kit/confirm.tsx: a page post never acts unconfirmed). Each row is decided on its own through
// actions/commission-reviews.ts (audited there, the user as actor); a row refused (already decided the other way:
// 409, or not found) is reported beside that row on the queue, the others decided all the same. Members see the
// queue without the boxes and buttons (the post answers them 403).
import type { ComponentChildren } from 'preact';
import { decideReview, REVIEW_NOTE_MAX as NOTE_MAX, type CommissionReviewDecision } from '../../../actions/commission-reviews.js';
import {
  listReviews,
  reviewFilterChoices,
  untrustedProxyInstalls,
  type ReviewChoice,
  type ReviewListItem,
} from '../../../db/commission-reviews.js';
import { ConflictError, NotFoundError } from '../../../errors/http-errors.js';
import { FRAUD_SIGNALS, ipSignalsOff, SIGNAL_NAMES, type FraudSignalName } from '../../../lib/fraud-signals/index.js';
import { formatUsd } from '../../../lib/money.js';
import { REVIEW_STATUSES, type ReviewStatus } from '../../../schema/types.js';
import type { AppContext } from '../../context.js';
import { setFlash } from '../../view-kit/flash.js';
import {
  canManage,
  CsrfField,
  dashboardPage,
  Hidden,
  OrgLink,
  orgLink,
  refusalPage,
  stateFor,
  Table,
  type SignedIn,
} from '../../view-kit/layout.js';
import { safeUrl } from '../../view-kit/html.js';
import { safeReturnTo } from '../../view-kit/sign-in-forms.js';
import { FieldError, LocalTime } from '../../view-kit/ui.js';
import { EmptyState, StatePill } from '../../view-kit/visual.js';
import { signedIn } from '../signed-in.js';

export const REVIEWS_PATH = '/dashboard/reviews';
const DECIDE_PATH = '/dashboard/reviews/decide';
/** The form whose refused rows come back beside them (flash form state: errors by review id). */
const DECISIONS_FORM = 'review-decisions';
/** A review id as the database issues them (`rev_` and hex); anything else names no review. */
const REVIEW_ID = /^[\w-]{1,100}$/;

type StatusFilter = ReviewStatus | 'all';
const STATUS_WORDS: Record<StatusFilter, string> = {
  open: 'Open',
  approved: 'Approved',
  voided: 'Voided',
  all: 'All',
};

interface Filter {
  status: StatusFilter;
  signal?: FraudSignalName;
  creatorId?: string;
  appId?: string;
}

const one = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const micros = (r: ReviewListItem) => Number(r.amount_micros);
const total = (rows: readonly ReviewListItem[]) => formatUsd(rows.reduce((n, r) => n + micros(r), 0));
const commissions = (n: number) => `${n} commission${n === 1 ? '' : 's'}`;

/** The filter of the query, each value kept only when it is one of the choices offered. */
function filterOf(ctx: AppContext, choices: { creators: ReviewChoice[]; apps: ReviewChoice[] }): Filter {
  const status = one(ctx.query.status);
  const signal = one(ctx.query.signal);
  const creator = one(ctx.query.creator_id);
  const app = one(ctx.query.app_id);
  return {
    status: status === 'all' || REVIEW_STATUSES.includes(status as ReviewStatus) ? (status as StatusFilter) : 'open',
    signal: FRAUD_SIGNALS.find((x) => x === signal),
    creatorId: choices.creators.find((c) => c.id === creator)?.id,
    appId: choices.apps.find((a) => a.id === app)?.id,
  };
}

const queryOf = (f: Filter): string => {
  const q = new URLSearchParams({ status: f.status });
  if (f.signal) q.set('signal', f.signal);
  if (f.creatorId) q.set('creator_id', f.creatorId);
  if (f.appId) q.set('app_id', f.appId);
  return `${REVIEWS_PATH}?${q.toString()}`;
};

/** Each raised signal in words: its name, then its evidence sentence. */
export const Evidence = ({ r }: { r: Pick<ReviewListItem, 'signals'> }) => (
  <ul class="evidence">
    {r.signals.map((x) => (
      <li data-signal={x.signal}>
        <strong>{SIGNAL_NAMES[x.signal as FraudSignalName] ?? x.signal.replace(/_/g, ' ')}</strong>: {x.evidence}
      </li>
    ))}
  </ul>
);

/** The commission's review state as a pill (held, flagged, approved, voided), and how it was decided. */
function ReviewState({ r }: { r: ReviewListItem }) {
  const state = r.review_state ?? (r.status === 'open' ? (r.action === 'hold' ? 'held' : 'flagged') : r.status);
  return (
    <>
      <StatePill state={state} />
      {r.status === 'open' ? (
        <div class="muted">{r.action === 'hold' ? 'Not paid until approved.' : 'Paid as usual unless voided.'}</div>
      ) : (
        <div class="muted">
          Decided <LocalTime at={r.decided_at} date />
          {r.note ? `: ${r.note}` : ''}
        </div>
      )}
    </>
  );
}

/** A review's cells in the queue's order (Creator, Amount, State, Why, Campaign, App): `children` fill the state. */
const ReviewCells = ({ r, children }: { r: ReviewListItem; children: ComponentChildren }) => (
  <>
    <td>{r.creator_name}</td>
    <td class="amount">{formatUsd(micros(r))}</td>
    <td class="review-state">{children}</td>
    <td>
      <Evidence r={r} />
    </td>
    <td>{r.campaign_name}</td>
    <td>{r.app_name}</td>
  </>
);

function ReviewRow({ r, pick, error }: { r: ReviewListItem; pick: boolean; error?: string }) {
  const label = `${r.creator_name}, ${formatUsd(micros(r))}, ${r.campaign_name}`;
  return (
    <tr data-review={r.id} data-state={r.review_state ?? ''}>
      <ReviewCells r={r}>
        <ReviewState r={r} />
        <FieldError id={`review-${r.id}`} error={error} />
      </ReviewCells>
      <td>
        <LocalTime at={r.created_at} />
      </td>
      {pick ? (
        <td>
          {r.status === 'open' ? (
            <label class="check">
              <input type="checkbox" name="review" value={r.id} form="review-decisions" />
              <span class="visually-hidden">Select {label}</span>
            </label>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

function FilterForm({ s, f, choices }: { s: SignedIn; f: Filter; choices: { creators: ReviewChoice[]; apps: ReviewChoice[] } }) {
  const select = (id: string, name: string, label: string, options: [string, string][], picked: string | undefined) => (
    <div class="filter">
      <label for={id}>{label}</label>
      <select id={id} name={name}>
        {options.map(([value, words]) => (
          <option value={value} selected={(picked ?? '') === value}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form method="get" action={REVIEWS_PATH} id="review-filter" class="filters">
      {s.orgIds.length > 1 && s.orgId ? <Hidden fields={{ org: s.orgId }} /> : null}
      {select('filter-status', 'status', 'Status', Object.entries(STATUS_WORDS), f.status)}
      {select(
        'filter-signal',
        'signal',
        'Signal',
        [['', 'Any signal'], ...FRAUD_SIGNALS.map((x): [string, string] => [x, SIGNAL_NAMES[x]])],
        f.signal,
      )}
      {select(
        'filter-creator',
        'creator_id',
        'Creator',
        [['', 'Any creator'], ...choices.creators.map((c): [string, string] => [c.id, c.name])],
        f.creatorId,
      )}
      {select('filter-app', 'app_id', 'App', [['', 'Any app'], ...choices.apps.map((a): [string, string] => [a.id, a.name])], f.appId)}
      <button type="submit" class="secondary">
        Filter
      </button>
    </form>
  );
}

const CELLS = ['Creator', 'Amount', 'State', 'Why (evidence)', 'Campaign', 'App'];
const COLUMNS = [...CELLS, 'Raised'];

function emptyWords(f: Filter): { title: string; body: ComponentChildren } {
  const filtered = f.signal || f.creatorId || f.appId;
  if (filtered) return { title: 'No review matches these filters.', body: 'Choose "Any" in a filter to see more.' };
  if (f.status === 'open')
    return {
      title: 'Nothing waits for a decision.',
      body:
        'When a purchase looks suspicious (a creator buying through their own code, installs farmed from one address, ' +
        "a code leaked beyond the creator's audience), its commission is listed here with the evidence in words: held " +
        "until you approve it, or flagged and paid as usual. Each campaign's page sets what each signal does.",
    };
  return { title: `No ${f.status === 'all' ? '' : `${f.status} `}reviews yet.`, body: 'Decisions made on open reviews are listed here.' };
}

export async function reviewsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Reviews', <p>You belong to no organization.</p>);
  const choices = await reviewFilterChoices(ctx.deps.db, s.orgId);
  const f = filterOf(ctx, choices);
  const refused = stateFor(s, DECISIONS_FORM)?.errors ?? {};
  const refusedIds = Object.keys(refused).filter((id) => REVIEW_ID.test(id));
  const [listed, refusedRows, proxied] = await Promise.all([
    listReviews(ctx.deps.db, s.orgId, {
      status: f.status === 'all' ? undefined : f.status,
      signal: f.signal,
      creatorId: f.creatorId,
      appId: f.appId,
    }),
    refusedIds.length ? listReviews(ctx.deps.db, s.orgId, { ids: refusedIds }) : [],
    untrustedProxyInstalls(ctx.deps.db, s.orgId),
  ]);
  // Rows a decision refused stay in view with the reason beside them, even when the filter no longer lists them.
  const rows = [...refusedRows.filter((r) => !listed.some((x) => x.id === r.id)), ...listed];
  const pick = canManage(s) && rows.some((r) => r.status === 'open');
  const here = orgLink(s, queryOf(f));
  const empty = emptyWords(f);
  dashboardPage(
    ctx,
    s,
    200,
    'Reviews',
    <>
      <p>
        Commissions whose purchase looks suspicious, with the evidence in words. A <strong>held</strong> commission stays reserved in the
        wallet and is never paid until approved; approving lets it follow its holding period, voiding releases its reservation and tells the
        creator it will not be paid (without naming the rule). A <strong>flagged</strong> one is paid as usual unless voided.
      </p>
      {proxied ? (
        <p class="notice" id="ip-signals-off" role="status">
          {ipSignalsOff(null, { trustProxy: false, behindProxy: true })} {proxied} install{proxied === 1 ? '' : 's'} in the last 7 days came
          that way: self-referral by address and install farms are not read for them. Set TRUST_PROXY (and TRUST_PROXY_HOPS) to read client
          addresses.
        </p>
      ) : null}
      <FilterForm s={s} f={f} choices={choices} />
      {rows.length ? (
        <>
          <Table id="reviews" columns={pick ? [...COLUMNS, ''] : COLUMNS} label="Reviews">
            {rows.map((r) => (
              <ReviewRow r={r} pick={pick} error={refused[r.id]} />
            ))}
          </Table>
          {pick ? (
            <form method="post" action={orgLink(s, DECIDE_PATH)} id="review-decisions" class="bulk">
              <CsrfField s={s} />
              <Hidden fields={{ return_to: here }} />
              <label for="review-note">Note (optional, kept with each decision)</label>
              <input id="review-note" name="note" maxlength={NOTE_MAX} />
              <div class="actions">
                <button type="submit" name="decision" value="approve">
                  Approve selected
                </button>
                <button type="submit" name="decision" value="void" class="danger">
                  Void selected
                </button>
              </div>
              <p class="muted">Tick the rows to decide; the next step shows them with their total before anything changes.</p>
            </form>
          ) : canManage(s) ? null : (
            <p class="muted">Owners and admins approve or void commissions under review.</p>
          )}
          {listed.length >= 200 ? <p class="muted">The 200 newest are shown: narrow the filters to see others.</p> : null}
        </>
      ) : (
        <EmptyState id="reviews-empty" title={empty.title}>
          {empty.body}
        </EmptyState>
      )}
    </>,
  );
}

const DECISION_WORDS: Record<CommissionReviewDecision, { verb: string; done: string; detail: string }> = {
  approve: {
    verb: 'Approve',
    done: 'Approved',
    detail:
      'Each approved commission follows its holding period: still reserved until the period ends, payable at once if it has ended. ' +
      'A decision is final: an approved commission cannot be voided here afterwards.',
  },
  void: {
    verb: 'Void',
    done: 'Voided',
    detail:
      "Each voided commission is taken back: a held one's reservation is released to the wallet, one already paid is owed back " +
      'by the creator. The creator is told, with a neutral reason, that it will not be paid. A decision is final.',
  },
};

const refuse = (ctx: AppContext, s: SignedIn, status: number, message: string) =>
  refusalPage(
    ctx,
    s,
    status,
    'Reviews',
    message,
    <p>
      <OrgLink s={s} to={REVIEWS_PATH}>
        Back to the reviews
      </OrgLink>
    </p>,
  );

/** POST /dashboard/reviews/decide: the confirmation step, then (with `confirmed=yes`) each row decided on its own. */
export async function decideReviews(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || !canManage(s)) return refuse(ctx, s, 403, 'Only owners and admins approve or void commissions under review.');
  const body = (ctx.state.body ?? {}) as Record<string, unknown>;
  const back = safeReturnTo(one(body.return_to) ?? REVIEWS_PATH);
  const decision = body.decision === 'approve' || body.decision === 'void' ? body.decision : undefined;
  if (!decision) return refuse(ctx, s, 422, 'Decision: choose Approve selected or Void selected.');
  const note = (one(body.note) ?? '').trim();
  if (note.length > NOTE_MAX) return refuse(ctx, s, 422, `Note: use at most ${NOTE_MAX} characters.`);
  const ids = [...new Set([body.review].flat().filter((x): x is string => typeof x === 'string' && REVIEW_ID.test(x)))];
  if (ids.length === 0) {
    setFlash(ctx, { flash: { tone: 'bad', text: 'Nothing was decided: tick the rows to approve or void first.' } });
    ctx.status = 303;
    return ctx.redirect(back);
  }
  const rows = await listReviews(ctx.deps.db, s.orgId, { ids });
  if (rows.length === 0) return refuse(ctx, s, 404, 'No such review in your organization.');
  if (body.confirmed !== 'yes') return confirmStep(ctx, s, { decision, note, rows, back });

  const refused: Record<string, string> = {};
  const decided: ReviewListItem[] = [];
  const actor = { actorType: 'user' as const, actorId: s.userId, requestId: ctx.state.requestId, ip: ctx.state.clientIp };
  for (const r of rows) {
    try {
      decided.push(await decideReview(ctx.deps.db, { orgId: s.orgId, reviewId: r.id, decision, note: note || null, actor }));
    } catch (err) {
      if (!(err instanceof ConflictError) && !(err instanceof NotFoundError)) throw err;
      refused[r.id] = err instanceof ConflictError ? err.message : 'This review is no longer in your organization.';
    }
  }
  const words = DECISION_WORDS[decision];
  const failed = rows.filter((r) => refused[r.id]);
  const text =
    (decided.length
      ? `${words.done} ${commissions(decided.length)} totalling ${total(decided)}.`
      : `Nothing was ${words.done.toLowerCase()}.`) +
    (failed.length ? ` ${commissions(failed.length)} could not be: the reason is beside each below.` : '');
  setFlash(ctx, {
    flash: {
      tone: failed.length ? 'bad' : 'ok',
      text,
      lines: failed.map((r) => `${r.creator_name}, ${formatUsd(micros(r))}: ${refused[r.id]}`),
    },
    ...(failed.length ? { form: { values: { form_id: DECISIONS_FORM }, errors: refused } } : {}),
  });
  ctx.status = 303;
  ctx.redirect(back);
}

/** The step before a bulk decision: the question with the count and total, the rows, and the confirming form. */
function confirmStep(
  ctx: AppContext,
  s: SignedIn,
  d: { decision: CommissionReviewDecision; note: string; rows: ReviewListItem[]; back: string },
): void {
  const words = DECISION_WORDS[d.decision];
  const question = `${words.verb} ${commissions(d.rows.length)} totalling ${total(d.rows)}?`;
  const decidedAlready = d.rows.filter((r) => r.status !== 'open');
  dashboardPage(
    ctx,
    s,
    200,
    question,
    <>
      <p>{words.detail}</p>
      {decidedAlready.length ? (
        <p class="notice" role="status">
          {commissions(decidedAlready.length)} of these {decidedAlready.length === 1 ? 'was' : 'were'} decided already: a repeat of the same
          decision changes nothing, the other decision is refused (the reason shows beside the row).
        </p>
      ) : null}
      <Table id="confirm-reviews" columns={CELLS} label="Commissions to decide">
        {d.rows.map((r) => (
          <tr data-review={r.id}>
            <ReviewCells r={r}>
              <StatePill state={r.review_state ?? r.status} />
            </ReviewCells>
          </tr>
        ))}
      </Table>
      {d.note ? (
        <p>
          Note: <q>{d.note}</q>
        </p>
      ) : null}
      <form method="post" action={orgLink(s, DECIDE_PATH)} id="confirm-decision">
        <CsrfField s={s} />
        <Hidden fields={{ return_to: d.back, decision: d.decision, note: d.note || undefined, confirmed: 'yes' }} />
        {d.rows.map((r) => (
          <input type="hidden" name="review" value={r.id} />
        ))}
        <div class="actions">
          <button type="submit" class={d.decision === 'void' ? 'danger' : undefined}>
            {words.verb} {commissions(d.rows.length)}
          </button>
          <a class="button secondary" href={safeUrl(d.back)}>
            Cancel
          </a>
        </div>
      </form>
    </>,
  );
}
