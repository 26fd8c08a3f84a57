// The organization home's key figures (GET /dashboard, home-page.tsx) over a preset period of 7, 30 or 90 whole UTC
// days ending today (`?days=`, default 30): clicks, installs, paid attributed production conversions, revenue and
// commission (net production, the agent analytics' definitions: db/analytics.ts) over the organization's apps, and
// two figures that have no period: the wallet's safe balance and what is payable to creators now.
import type { VNode } from 'preact';
import { listAppsInOrgs } from '../../../db/apps.js';
import { aggregateMetrics, emptyMetrics } from '../../../db/analytics.js';
import { getCreatorMoneySummary, payableNow } from '../../../db/creator-balances.js';
import { getWalletTotals } from '../../../db/wallet-ledger.js';
import { safeUrl } from '../../view-kit/html.js';
import { formatUsd, toMicros, walletView } from '../../../lib/money.js';
import type { AppContext } from '../../context.js';
import { Hidden, orgLink, type SignedIn } from '../../view-kit/layout.js';

const PERIOD_PRESETS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The period of `?days=` (a preset, else 30 days): both ends inclusive, ending today (UTC). */
function presetPeriod(days: unknown, now = Date.now()): { days: number; from: string; to: string } {
  const n = PERIOD_PRESETS.find((p) => String(p) === days) ?? DEFAULT_DAYS;
  return { days: n, from: isoDay(now - (n - 1) * DAY_MS), to: isoDay(now) };
}

export async function overviewSection(ctx: AppContext, s: SignedIn, orgId: string): Promise<VNode> {
  const db = ctx.deps.db;
  const period = presetPeriod(ctx.query.days);
  const apps = await listAppsInOrgs(db, [orgId]);
  const [metrics, totals, money] = await Promise.all([
    aggregateMetrics(db, { appIds: apps.map((a) => a.id) }, period, 'total'),
    getWalletTotals(db, orgId),
    getCreatorMoneySummary(db, orgId),
  ]);
  const m = metrics.get('total') ?? emptyMetrics();
  const wallet = walletView(totals);
  const figure = (id: string, label: string, value: string) => (
    <tr>
      <th scope="row">{label}</th>
      <td id={id}>{value}</td>
    </tr>
  );
  return (
    <section id="overview" aria-labelledby="overview-heading">
      <h2 id="overview-heading">Last {period.days} days</h2>
      <form method="get" action="/dashboard">
        {s.orgIds.length > 1 ? <Hidden fields={{ org: s.orgId }} /> : null}
        <label for="period-days">Period</label>{' '}
        <select id="period-days" name="days">
          {PERIOD_PRESETS.map((p) => (
            <option value={String(p)} selected={p === period.days}>
              {p} days
            </option>
          ))}
        </select>{' '}
        <button type="submit">Show</button>{' '}
        {PERIOD_PRESETS.map((p) => (
          <>
            {' '}
            <a href={safeUrl(orgLink(s, `/dashboard?days=${p}`))} aria-current={p === period.days ? 'true' : undefined}>
              {p} days
            </a>
          </>
        ))}
      </form>
      <div class="table-scroll" role="region" aria-labelledby="figures-caption" tabindex={0}>
        <table id="figures">
          <caption id="figures-caption">
            Key figures, {period.from} to {period.to} (UTC, production)
          </caption>
          <tbody>
            {figure('fig-clicks', 'Clicks', String(m.clicks))}
            {figure('fig-installs', 'Installs', String(m.installs))}
            {figure('fig-conversions', 'Conversions (paid, attributed)', String(m.conversions))}
            {figure('fig-revenue', 'Revenue (attributed, net of refunds)', formatUsd(toMicros(m.revenue_usd)))}
            {figure('fig-commission', 'Commission (net of refunds)', formatUsd(toMicros(m.commission_usd)))}
            {figure('fig-safe', 'Safe balance (now)', formatUsd(wallet.safe_available_micros))}
            {figure('fig-payable', 'Payable to creators (now: commissions and bonus awards)', formatUsd(payableNow(money).micros))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
