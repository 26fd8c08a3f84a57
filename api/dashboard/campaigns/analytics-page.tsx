// GET /dashboard/campaigns/{id}/analytics?from=&to=: a campaign's daily performance, funnel and top affiliates,
// production only, from the agent API's own computations (api/agent/analytics.ts: the same bodies its endpoints
// answer, the same period rules and 422s). The numbers are plain tables (readable without JavaScript); the charts
// are drawn by api/dashboard/browser/analytics-charts.js with Chart.js (both served locally,
// api/dashboard/static-assets.ts) from a JSON block holding those same bodies.
import { ScrollTable } from '../../view-kit/ui.js';
import { findCampaign } from '../../../db/campaigns.js';
import { AppError } from '../../../errors/http-errors.js';
import { JsonScript } from '../../view-kit/html.js';
import { assertValid } from '../../../lib/validation.js';
import { campaignFunnelOf, dailyPerformanceOf, periodQuery, topAffiliatesOf } from '../../agent/analytics.js';
import type { AppContext } from '../../context.js';
import { Problems } from '../../view-kit/form-reply.js';
import { dashboardPage, Hidden, OrgLink, type SignedIn } from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';
import { CHART_JS_PATH, type StaticScript } from '../static-assets.js';

const TOP_LIMIT = 10;
const usd = (n: number) => `$${n.toFixed(2)}`;

type Daily = Awaited<ReturnType<typeof dailyPerformanceOf>>;
type Funnel = Awaited<ReturnType<typeof campaignFunnelOf>>;
type Top = Awaited<ReturnType<typeof topAffiliatesOf>>;

const ANALYTICS_SCRIPTS: StaticScript[] = [CHART_JS_PATH, '/dashboard/static/analytics-charts.js'];

const Col = ({ children }: { children: string }) => <th scope="col">{children}</th>;

function DailyTable({ d }: { d: Daily }) {
  return (
    <ScrollTable label="Daily performance">
      <table id="daily-table" aria-describedby="daily">
        <thead>
          <tr>
            {['Day (UTC)', 'Clicks', 'Installs', 'Attributed installs', 'Trials', 'Conversions', 'Revenue', 'Commission'].map((c) => (
              <Col>{c}</Col>
            ))}
          </tr>
        </thead>
        <tbody>
          {d.days.map((r) => (
            <tr data-date={r.date}>
              <th scope="row">{r.date}</th>
              <td>{r.clicks}</td>
              <td>{r.installs}</td>
              <td>{r.attributed_installs}</td>
              <td>{r.trials}</td>
              <td>{r.conversions}</td>
              <td>{usd(r.revenue_usd)}</td>
              <td>{usd(r.commission_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

function FunnelTable({ f }: { f: Funnel }) {
  const pct = (r: number | null) => (r === null ? '–' : `${(r * 100).toFixed(1)} %`);
  const rows: [string, string, string][] = [
    ['clicks', 'Clicks', String(f.clicks)],
    ['installs', 'Installs (all)', String(f.installs)],
    ['attributed_installs', 'Attributed installs', String(f.attributed_installs)],
    ['trials', 'Trials', String(f.trials)],
    ['conversions', 'Conversions', String(f.conversions)],
    ['revenue_usd', 'Revenue', usd(f.revenue_usd)],
    ['commission_usd', 'Commission', usd(f.commission_usd)],
    ['install_per_click', 'Installs per click', pct(f.rates.install_per_click)],
    ['conversion_per_install', 'Conversions per install', pct(f.rates.conversion_per_install)],
  ];
  return (
    <ScrollTable label="Funnel">
      <table id="funnel-table" aria-describedby="funnel">
        <tbody>
          {rows.map(([k, label, v]) => (
            <tr data-metric={k}>
              <th scope="row">{label}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

function TopTable({ t }: { t: Top }) {
  if (t.affiliates.length === 0) return <p>No creators in this campaign yet.</p>;
  return (
    <ScrollTable label="Top affiliates">
      <table id="top-table" aria-describedby="top">
        <thead>
          <tr>
            {['Rank', 'Code', 'Creator', 'Clicks', 'Attributed installs', 'Conversions', 'Revenue', 'Commission'].map((c) => (
              <Col>{c}</Col>
            ))}
          </tr>
        </thead>
        <tbody>
          {t.affiliates.map((a) => (
            <tr data-code={a.code}>
              <td>{a.rank}</td>
              <th scope="row">{a.code}</th>
              <td>{String(a.creator_name ?? '')}</td>
              <td>{a.clicks}</td>
              <td>{a.attributed_installs}</td>
              <td>{a.conversions}</td>
              <td>{usd(a.revenue_usd)}</td>
              <td>{usd(a.commission_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

function PeriodForm({ s, path, from, to }: { s: SignedIn; path: string; from: string; to: string }) {
  return (
    <form method="get" action={path}>
      {s.orgIds.length > 1 && s.orgId ? <Hidden fields={{ org: s.orgId }} /> : null}
      <label for="from">From (UTC day)</label>
      <input id="from" name="from" type="date" value={from} />
      <label for="to">To (UTC day)</label>
      <input id="to" name="to" type="date" value={to} />
      <button type="submit">Show period</button>
    </form>
  );
}

const ChartCanvas = ({ id, label }: { id: string; label: string }) => (
  <canvas id={id} role="img" aria-label={`${label} (the numbers are in the table below)`}></canvas>
);

export async function analyticsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const campaign = visibleOrNotFoundPage(ctx, s, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  if (!campaign) return;
  const title = `Analytics: ${String(campaign.name)}`;
  const raw = {
    from: typeof ctx.query.from === 'string' && ctx.query.from ? ctx.query.from : undefined,
    to: typeof ctx.query.to === 'string' && ctx.query.to ? ctx.query.to : undefined,
  };
  let daily: Daily, funnel: Funnel, top: Top;
  try {
    const q = assertValid<{ from?: string; to?: string }>(periodQuery, raw, 'query');
    [daily, funnel, top] = await Promise.all([
      dailyPerformanceOf(ctx, campaign, q),
      campaignFunnelOf(ctx, campaign, q),
      topAffiliatesOf(ctx, { ...q, campaign_id: campaign.id, limit: TOP_LIMIT }),
    ]);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return dashboardPage(
      ctx,
      s,
      err.status,
      title,
      <>
        <div role="alert" class="error">
          <Problems err={err} />
        </div>
        <PeriodForm s={s} path={ctx.path} from={raw.from ?? ''} to={raw.to ?? ''} />
      </>,
    );
  }
  const p = daily.period;
  dashboardPage(
    ctx,
    s,
    200,
    title,
    <>
      <p class="muted">
        Production only (sandbox purchases never count), whole UTC days {p.from} to {p.to} ({p.days} days). The same numbers as the agent
        API (<code>GET /api/agent/campaigns/{campaign.id}/daily-performance</code>, <code>…/funnel</code>,{' '}
        <code>/api/agent/analytics/top-affiliates</code>).{' '}
        <OrgLink s={s} to={`/dashboard/campaigns/${campaign.id}`}>
          Campaign settings
        </OrgLink>
      </p>
      <PeriodForm s={s} path={ctx.path} from={p.from} to={p.to} />
      <h2 id="daily">Daily performance</h2>
      <ChartCanvas id="daily-chart" label="Daily clicks, attributed installs, trials, conversions and revenue" />
      <DailyTable d={daily} />
      <h2 id="funnel">Funnel</h2>
      <ChartCanvas id="funnel-chart" label="Funnel from clicks to conversions" />
      <FunnelTable f={funnel} />
      <h2 id="top">Top affiliates (by conversions, then revenue)</h2>
      {top.affiliates.length ? <ChartCanvas id="top-chart" label="Top affiliates by conversions and clicks" /> : null}
      <TopTable t={top} />
      <JsonScript id="analytics-data" value={{ daily, funnel, top }} />
    </>,
    { scripts: ANALYTICS_SCRIPTS },
  );
}
