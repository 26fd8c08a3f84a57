// The organization home's key figures (GET /dashboard, home-page.tsx) over a preset period of 7, 30 or 90 whole UTC
// days ending today (`?days=`, default 30): clicks, installs, paid attributed production conversions, revenue and
// commission (net production, the agent analytics' definitions: db/analytics.ts) over the organization's apps, and
// two figures that have no period: the wallet's safe balance and what is payable to creators now. Each is a card
// (api/view-kit/visual.tsx) with its daily trend over the period: the same aggregateMetrics the analytics page and
// the agent's daily-performance read, bucketed by day; payable's trend is what was released to payable each day.
import type { VNode } from 'preact';
import { listAppsInOrgs } from '../../../db/apps.js';
import { aggregateMetrics, dailyReleasedMicros, emptyMetrics, type Metrics } from '../../../db/analytics.js';
import { getCreatorMoneySummary, payableNow } from '../../../db/creator-balances.js';
import { getWalletTotals } from '../../../db/wallet-ledger.js';
import { safeUrl } from '../../view-kit/html.js';
import { formatUsd, toMicros, walletView } from '../../../lib/money.js';
import type { AppContext } from '../../context.js';
import { Hidden, orgLink, type SignedIn } from '../../view-kit/layout.js';
import { FigureCards, type KeyFigure } from '../../view-kit/visual.js';

const PERIOD_PRESETS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The period of `?days=` (a preset, else 30 days): both ends inclusive, ending today (UTC). */
function presetPeriod(days: unknown, now = Date.now()): { days: number; from: string; to: string } {
  const n = PERIOD_PRESETS.find((p) => String(p) === days) ?? DEFAULT_DAYS;
  return { days: n, from: isoDay(now - (n - 1) * DAY_MS), to: isoDay(now) };
}

const usd = (n: number) => formatUsd(toMicros(n));
/** The figures of the period, in the cards' order: id, label, how the value reads, the metric, a note. */
const PERIOD_FIGURES: [string, string, (n: number) => string, (m: Metrics) => number, string | undefined][] = [
  ['fig-revenue', 'Revenue', usd, (m) => m.revenue_usd, 'attributed, net of refunds'],
  ['fig-commission', 'Commission', usd, (m) => m.commission_usd, 'net of refunds'],
  ['fig-installs', 'Installs', String, (m) => m.installs, undefined],
  ['fig-conversions', 'Conversions', String, (m) => m.conversions, 'paid, attributed'],
  ['fig-clicks', 'Clicks', String, (m) => m.clicks, undefined],
];

/** The period's days, oldest first (YYYY-MM-DD). */
const daysOf = (period: { days: number; to: string }) =>
  Array.from({ length: period.days }, (_, i) => isoDay(Date.parse(`${period.to}T00:00:00Z`) - (period.days - 1 - i) * DAY_MS));

export async function overviewSection(ctx: AppContext, s: SignedIn, orgId: string): Promise<VNode> {
  const db = ctx.deps.db;
  const period = presetPeriod(ctx.query.days);
  const apps = await listAppsInOrgs(db, [orgId]);
  const scope = { appIds: apps.map((a) => a.id) };
  const [metrics, daily, released, totals, money] = await Promise.all([
    aggregateMetrics(db, scope, period, 'total'),
    aggregateMetrics(db, scope, period, 'day'),
    dailyReleasedMicros(db, orgId, period),
    getWalletTotals(db, orgId),
    getCreatorMoneySummary(db, orgId),
  ]);
  const m = metrics.get('total') ?? emptyMetrics();
  const wallet = walletView(totals);
  const days = daysOf(period);
  const per = `per day, ${period.from} to ${period.to}`;
  const figures: KeyFigure[] = [
    ...PERIOD_FIGURES.map(([id, label, shown, pick, note]) => ({
      id,
      label,
      value: shown(pick(m)),
      trend: days.map((d) => pick(daily.get(d) ?? emptyMetrics())),
      trendLabel: per,
      note,
    })),
    {
      id: 'fig-payable',
      label: 'Payable to creators now',
      value: formatUsd(payableNow(money).micros),
      trend: days.map((d) => released.get(d) ?? 0),
      trendLabel: `released to payable ${per}`,
      note: 'commissions and bonus awards; the line: released each day',
    },
    {
      id: 'fig-safe',
      label: 'Safe balance now',
      value: formatUsd(wallet.safe_available_micros),
      note: 'the wallet, less what is reserved',
    },
  ];
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
      <p class="muted" id="figures-caption">
        Key figures, {period.from} to {period.to} (UTC, production), each with its daily trend.
      </p>
      <FigureCards figures={figures} label={`Key figures, last ${period.days} days`} />
    </section>
  );
}
