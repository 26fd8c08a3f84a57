// The wallet page's payouts (humans only; docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"): what is payable and what
// creators owe back (getCreatorMoneySummary, the read GET /api/agent/wallet uses), the latest payout runs with their
// per-creator payouts and the creators each held over (with the reason), and for owners and admins a run in two steps
// through actions/payout-run.ts, the function `svc payouts run` calls: GET /dashboard/wallet/payouts/preview is a dry
// run under a run id generated there, whose confirm form carries that id to POST /dashboard/wallet/payouts/run
// (session + CSRF). The run is idempotent per run id, so a double submit or a resubmitted form pays once; the answer
// is a redirect to the run's own page (GET /dashboard/wallet/payouts/{run_id}), so reloading it reads and never pays.
// The run then starts its phase 2 (the payout-run workflow: one transfer per payout); the run's page shows each
// payout's status in lib/payout-status.ts's words. Members see all this but cannot preview or run (403). No agent
// route or tool reaches any of it.
import { StateText } from '../../view-kit/visual.js';
import { LocalTime, ScrollTable } from '../../view-kit/ui.js';
import type { ComponentChildren, VNode } from 'preact';
import { randomBytes } from 'node:crypto';
import { getCreatorMoneySummary, payableNow } from '../../../db/creator-balances.js';
import { creatorNames, findPayoutRun, listPayoutRuns, type PayoutRunView } from '../../../db/payout-history.js';
import { runPayoutRun, type CreatorPayout, type HeldOver } from '../../../actions/payout-run.js';
import { ConflictError } from '../../../errors/http-errors.js';
import { formatUsd } from '../../../lib/money.js';
import { startPayoutRun } from '../../../workflow-clients/payout-runs.js';
import { payoutStatus } from '../../../lib/payout-status.js';
import { newRunId, RUN_ID_PATTERN } from '../../../lib/payouts.js';
import type { AppContext } from '../../context.js';
import { canManage, dashboardPage, Hidden, OrgLink, orgLink, PostForm, refusalPage, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

const runPath = (runId: string) => `/dashboard/wallet/payouts/${encodeURIComponent(runId)}`;

type Line = Pick<
  CreatorPayout,
  | 'creator_id'
  | 'commission_count'
  | 'award_count'
  | 'awards_micros'
  | 'gross_micros'
  | 'fees_micros'
  | 'clawbacks_netted_micros'
  | 'net_micros'
> &
  Partial<Pick<CreatorPayout, 'transfer_status' | 'failure'>> & { creator_name?: string | null; transfer_id?: string | null };

/** The payout's status in the words every surface uses; a paid one names its transfer. */
const statusCell = (l: Line) => {
  if (!l.transfer_status) return '';
  const s = payoutStatus({ transfer_status: l.transfer_status, failure: l.failure });
  return <StateText state={s.status} text={s.status === 'paid' && l.transfer_id ? `${s.text} (${l.transfer_id})` : s.text} />;
};

/** Per-creator lines and their total: gross (commissions and bonus awards), platform fees, clawbacks netted, net to the creator. */
function PayoutTable({ lines, caption }: { lines: Line[]; caption: ComponentChildren }) {
  const sum = (k: keyof Line) => lines.reduce((n, l) => n + (l[k] as number), 0);
  const money = (l: Line) =>
    [
      String(l.commission_count),
      `${l.award_count} (${formatUsd(l.awards_micros)})`,
      formatUsd(l.gross_micros),
      formatUsd(l.fees_micros),
      formatUsd(l.clawbacks_netted_micros),
      formatUsd(l.net_micros),
    ].map((c) => <td>{c}</td>);
  const transfers = lines.some((l) => l.transfer_status);
  const total: Line = {
    creator_id: '',
    commission_count: sum('commission_count'),
    award_count: sum('award_count'),
    awards_micros: sum('awards_micros'),
    gross_micros: sum('gross_micros'),
    fees_micros: sum('fees_micros'),
    clawbacks_netted_micros: sum('clawbacks_netted_micros'),
    net_micros: sum('net_micros'),
  };
  return (
    <ScrollTable label="Payout">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th>Creator</th>
            <th>Commissions</th>
            <th>Bonus awards</th>
            <th>Gross</th>
            <th>Platform fees</th>
            <th>Clawbacks netted</th>
            <th>Net to creator</th>
            {transfers ? <th>Status</th> : null}
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr>
              <td>
                {l.creator_name ? `${l.creator_name} ` : null}
                <code>{l.creator_id}</code>
              </td>
              {money(l)}
              {transfers ? (
                <td
                  class="transfer"
                  data-status={l.transfer_status ? payoutStatus({ transfer_status: l.transfer_status }).status : undefined}
                >
                  {statusCell(l)}
                </td>
              ) : null}
            </tr>
          ))}
          <tr>
            <th scope="row">Total</th>
            {money(total)}
            {transfers ? <td /> : null}
          </tr>
        </tbody>
      </table>
    </ScrollTable>
  );
}

const runCaption = (run: PayoutRunView) => (
  <>
    Run {run.id}, <LocalTime at={run.created_at} />
    {run.created_by ? `, by ${run.created_by}` : ''}
  </>
);

/** Who a run held over (or a preview would), and why: their lines stay payable and accrue. */
function HeldOverTable({ held, caption }: { held: (HeldOver & { creator_name?: string | null })[]; caption: ComponentChildren }) {
  if (held.length === 0) return null;
  return (
    <ScrollTable label="Held over">
      <table class="held-over">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th>Creator</th>
            <th>Payable (held over)</th>
            <th>Why not paid now</th>
          </tr>
        </thead>
        <tbody>
          {held.map((h) => (
            <tr data-held={h.creator_id}>
              <td>
                {h.creator_name ? `${h.creator_name} ` : null}
                <code>{h.creator_id}</code>
              </td>
              <td>{formatUsd(h.payable_micros)}</td>
              <td>{h.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

const RunLines = ({ run }: { run: PayoutRunView }) => (
  <>
    {run.payouts.length ? (
      <PayoutTable lines={run.payouts} caption={runCaption(run)} />
    ) : (
      <p>
        {runCaption(run)}: nobody was paid{run.held_over.length ? '' : ' (nothing was payable)'}.
      </p>
    )}
    <HeldOverTable held={run.held_over} caption={<>Held over by run {run.id}: not paid, their lines stay payable</>} />
  </>
);

/** The wallet page's section. */
export async function payoutsWalletSection(ctx: AppContext, s: SignedIn): Promise<VNode> {
  const [money, runs] = await Promise.all([getCreatorMoneySummary(ctx.deps.db, s.orgId!), listPayoutRuns(ctx.deps.db, s.orgId!)]);
  const c = money.commissions;
  return (
    <>
      <h2 id="payouts">Payouts</h2>
      <p>
        Commissions become payable after their campaign's holding period; a payout run pays each creator their payable commissions and
        approved bonus awards, nets what they owe back (refunds after the period), and moves commission and platform fee out of the wallet;
        then one transfer per creator goes to their connected payout account. A creator without a ready payout account, or whose net is
        below the minimum payout, is held over (listed with the reason; their lines stay payable and accrue). A transfer the provider
        refuses or reverses is returned: nothing was paid and the lines are payable again.
      </p>
      <table>
        <tbody>
          <tr>
            <th scope="row">Payable now</th>
            <td id="payouts-payable">
              {formatUsd(payableNow(money).micros)} ({c.payable.count} commission(s), {money.awardsPayable.count} bonus award(s))
            </td>
          </tr>
          <tr>
            <th scope="row">Held (in the holding period)</th>
            <td id="payouts-held">
              {formatUsd(c.held.micros)} ({c.held.count})
            </td>
          </tr>
          {c.under_review.count > 0 ? (
            <tr>
              <th scope="row">Held for review (until a person approves or voids)</th>
              <td id="payouts-under-review">
                {formatUsd(c.under_review.micros)} ({c.under_review.count})
              </td>
            </tr>
          ) : null}
          <tr>
            <th scope="row">Unfunded</th>
            <td>
              {formatUsd(c.unfunded.micros)} ({c.unfunded.count})
            </td>
          </tr>
          <tr>
            <th scope="row">Paid so far</th>
            <td id="payouts-paid">
              {formatUsd(c.paid.micros)} ({c.paid.count})
            </td>
          </tr>
          <tr>
            <th scope="row">Clawbacks outstanding (creators owe back)</th>
            <td id="payouts-clawbacks">
              {formatUsd(money.clawbacksOutstanding.micros)} ({money.clawbacksOutstanding.count})
            </td>
          </tr>
        </tbody>
      </table>
      {canManage(s) ? (
        <form method="get" action={orgLink(s, '/dashboard/wallet/payouts/preview')}>
          {s.orgIds.length > 1 ? <Hidden fields={{ org: s.orgId }} /> : null}
          <button type="submit">Preview a payout run</button>
        </form>
      ) : (
        <p class="muted">Owners and admins run payouts.</p>
      )}
      <h3>Payout runs (latest 20)</h3>
      <p>
        <OrgLink s={s} to="/dashboard/wallet/payouts">
          Every payout by creator: search, sort and CSV export
        </OrgLink>
      </p>
      {runs.length === 0 ? (
        <p class="muted">No payout runs yet.</p>
      ) : (
        runs.map((run) => (
          <div data-run={run.id}>
            <RunLines run={run} />
          </div>
        ))
      )}
    </>
  );
}

const BackToWallet = ({ s, to = '/dashboard/wallet' }: { s: SignedIn; to?: string }) => (
  <p>
    <OrgLink s={s} to={to}>
      Back to the wallet
    </OrgLink>
  </p>
);

const refuse = (ctx: AppContext, s: SignedIn, status: number, message: string) =>
  refusalPage(ctx, s, status, 'Payouts', message, <BackToWallet s={s} />);

/** A dry run under a fresh run id; the confirm form carries the id, so confirming twice pays once. */
export async function preview(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || !canManage(s)) return refuse(ctx, s, 403, 'Only owners and admins run payouts.');
  const runId = newRunId(new Date(), randomBytes(6).toString('hex'));
  const dry = await runPayoutRun({ db: ctx.deps.db }, { orgId: s.orgId, runId, dryRun: true });
  const names = await creatorNames(
    ctx.deps.db,
    [...dry.payouts, ...dry.held_over].map((p) => p.creator_id),
  );
  const held = (
    <HeldOverTable
      held={dry.held_over.map((h) => ({ ...h, creator_name: names.get(h.creator_id) ?? null }))}
      caption="Held over: not paid by this run, their lines stay payable"
    />
  );
  if (dry.payouts.length === 0)
    return dashboardPage(
      ctx,
      s,
      200,
      'Payout preview',
      <>
        <p role="status">
          {dry.held_over.length
            ? 'No creator would be paid now: everyone payable is held over.'
            : 'Nothing is payable now: no creator would be paid.'}
        </p>
        {held}
        <BackToWallet s={s} />
      </>,
    );
  const n = dry.payouts.length;
  dashboardPage(
    ctx,
    s,
    200,
    'Payout preview',
    <>
      <p>
        Nothing has been paid yet. This is what run <code>{runId}</code> would pay now:
      </p>
      <PayoutTable
        lines={dry.payouts.map((p) => ({ ...p, creator_name: names.get(p.creator_id) ?? null }))}
        caption={`Preview of run ${runId}`}
      />
      {held}
      <p>
        {formatUsd(dry.totals.net_micros + dry.totals.fees_micros)} leaves the wallet (commissions and platform fees; clawbacks netted stay
        in it). Submitting this form twice, or again after a reload, pays once.
      </p>
      <PostForm s={s} action={orgLink(s, '/dashboard/wallet/payouts/run')}>
        <Hidden fields={{ run_id: runId }} />
        <button type="submit">
          Pay {n} creator{n === 1 ? '' : 's'} {formatUsd(dry.totals.net_micros)}
        </button>
      </PostForm>
      <BackToWallet s={s} />
    </>,
  );
}

export async function run(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || !canManage(s)) return refuse(ctx, s, 403, 'Only owners and admins run payouts.');
  const runId = (ctx.state.body as Record<string, unknown> | undefined)?.run_id;
  if (typeof runId !== 'string' || !RUN_ID_PATTERN.test(runId))
    return refuse(ctx, s, 422, 'run_id: start from the payout preview (1 to 100 of A-Z a-z 0-9 _ . : -).');
  const temporal = { client: ctx.deps.temporal, taskQueue: ctx.deps.config.TEMPORAL_TASK_QUEUE };
  let result;
  try {
    result = await runPayoutRun(
      { db: ctx.deps.db, startTransfers: (r) => startPayoutRun(temporal, r.runId, { orgId: r.orgId, createdBy: r.createdBy }) },
      {
        orgId: s.orgId,
        runId,
        createdBy: `user:${s.email}`,
        auditedAs: { userId: s.userId, requestId: ctx.state.requestId, ip: ctx.state.clientIp },
      },
    );
  } catch (err) {
    if (err instanceof ConflictError) return refuse(ctx, s, 404, 'No such payout run in your organization.');
    throw err;
  }
  // Temporal away: the run stays `transfer_pending` and the worker's resume pass sends it (jobs/payout-resume.ts).
  if (result.transfers === 'left_to_worker')
    ctx.deps.logger.warn({ runId }, "payout transfers not started now; the worker's resume pass takes the run up");
  ctx.status = 303;
  ctx.redirect(orgLink(s, `${runPath(runId)}${result.already_run ? '?again=1' : ''}`));
}

export async function showRun(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const found = s.orgId ? await findPayoutRun(ctx.deps.db, s.orgId, ctx.params.run_id as string) : undefined;
  if (!found) return refuse(ctx, s, 404, 'No such payout run in your organization.');
  dashboardPage(
    ctx,
    s,
    200,
    'Payout run',
    <>
      {ctx.query.again ? (
        <p class="notice" role="status">
          This run had already been paid: nothing was paid again.
        </p>
      ) : null}
      <RunLines run={found} />
      <BackToWallet s={s} to="/dashboard/wallet#payouts" />
    </>,
  );
}
