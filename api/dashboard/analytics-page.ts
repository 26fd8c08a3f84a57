// GET /dashboard/campaigns/{id}/analytics?from=&to=: a campaign's daily performance, funnel and top affiliates,
// production only, from the agent API's own computations (api/agent/analytics.ts: the same bodies its endpoints
// answer, the same period rules and 422s). The numbers are plain tables (readable without JavaScript); the charts
// are drawn by Chart.js (served locally, api/dashboard/static-assets.ts) from a JSON block holding those same bodies.
import { findCampaign } from '../../db/campaigns.js';
import { AppError } from '../../lib/errors.js';
import { escapeHtml, jsonForHtml } from '../../lib/html.js';
import { assertValid } from '../../lib/validation.js';
import { campaignFunnelOf, dailyPerformanceOf, periodQuery, topAffiliatesOf } from '../agent/analytics.js';
import type { AppContext } from '../context.js';
import { problemLines } from './form-reply.js';
import { dashboardPage, orgLink, signedIn, type SignedIn, visibleOrNotFoundPage } from './layout.js';
import { CHART_JS_PATH } from './static-assets.js';

const e = escapeHtml;
const TOP_LIMIT = 10;
const usd = (n: number) => `$${n.toFixed(2)}`;

type Daily = Awaited<ReturnType<typeof dailyPerformanceOf>>;
type Funnel = Awaited<ReturnType<typeof campaignFunnelOf>>;
type Top = Awaited<ReturnType<typeof topAffiliatesOf>>;

/** Static code: builds the three charts from the JSON block (the same numbers as the tables). */
const CHART_SCRIPT = `(() => {
  const data = JSON.parse(document.getElementById('analytics-data').textContent);
  const common = { animation: false, responsive: true, plugins: { legend: { position: 'bottom' } } };
  const days = data.daily.days;
  new Chart(document.getElementById('daily-chart'), { type: 'line', options: { ...common, scales: { y: { beginAtZero: true, title: { display: true, text: 'count' } }, y1: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: 'USD' } } } }, data: {
    labels: days.map((d) => d.date),
    datasets: [
      { label: 'Clicks', data: days.map((d) => d.clicks) },
      { label: 'Attributed installs', data: days.map((d) => d.attributed_installs) },
      { label: 'Trials', data: days.map((d) => d.trials) },
      { label: 'Conversions', data: days.map((d) => d.conversions) },
      { label: 'Revenue (USD)', data: days.map((d) => d.revenue_usd), yAxisID: 'y1', type: 'bar' },
    ] } });
  const f = data.funnel;
  new Chart(document.getElementById('funnel-chart'), { type: 'bar', options: { ...common, scales: { y: { beginAtZero: true } } }, data: {
    labels: ['Clicks', 'Attributed installs', 'Trials', 'Conversions'],
    datasets: [{ label: 'Funnel', data: [f.clicks, f.attributed_installs, f.trials, f.conversions] }] } });
  const top = data.top.affiliates;
  if (top.length > 0) new Chart(document.getElementById('top-chart'), { type: 'bar', options: { ...common, indexAxis: 'y', scales: { x: { beginAtZero: true } } }, data: {
    labels: top.map((a) => a.code),
    datasets: [{ label: 'Conversions', data: top.map((a) => a.conversions) }, { label: 'Clicks', data: top.map((a) => a.clicks) }] } });
})();`;

function dailyTable(d: Daily): string {
  return `<table id="daily-table" aria-describedby="daily"><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Clicks</th><th scope="col">Installs</th><th scope="col">Attributed installs</th><th scope="col">Trials</th><th scope="col">Conversions</th><th scope="col">Revenue</th><th scope="col">Commission</th></tr></thead><tbody>
${d.days.map((r) => `<tr data-date="${e(r.date)}"><th scope="row">${e(r.date)}</th><td>${r.clicks}</td><td>${r.installs}</td><td>${r.attributed_installs}</td><td>${r.trials}</td><td>${r.conversions}</td><td>${usd(r.revenue_usd)}</td><td>${usd(r.commission_usd)}</td></tr>`).join('\n')}</tbody></table>`;
}

function funnelTable(f: Funnel): string {
  const pct = (r: number | null) => (r === null ? '–' : `${(r * 100).toFixed(1)} %`);
  const rows: [string, string, string][] = [
    ['clicks', 'Clicks', String(f.clicks)], ['installs', 'Installs (all)', String(f.installs)], ['attributed_installs', 'Attributed installs', String(f.attributed_installs)],
    ['trials', 'Trials', String(f.trials)], ['conversions', 'Conversions', String(f.conversions)], ['revenue_usd', 'Revenue', usd(f.revenue_usd)],
    ['commission_usd', 'Commission', usd(f.commission_usd)], ['install_per_click', 'Installs per click', pct(f.rates.install_per_click)],
    ['conversion_per_install', 'Conversions per install', pct(f.rates.conversion_per_install)],
  ];
  return `<table id="funnel-table" aria-describedby="funnel"><tbody>${rows.map(([k, label, v]) => `<tr data-metric="${k}"><th scope="row">${label}</th><td>${e(v)}</td></tr>`).join('')}</tbody></table>`;
}

function topTable(t: Top): string {
  if (t.affiliates.length === 0) return '<p>No creators in this campaign yet.</p>';
  return `<table id="top-table" aria-describedby="top"><thead><tr><th scope="col">Rank</th><th scope="col">Code</th><th scope="col">Creator</th><th scope="col">Clicks</th><th scope="col">Attributed installs</th><th scope="col">Conversions</th><th scope="col">Revenue</th><th scope="col">Commission</th></tr></thead><tbody>
${t.affiliates.map((a) => `<tr data-code="${e(a.code)}"><td>${a.rank}</td><th scope="row">${e(a.code)}</th><td>${e(String(a.creator_name ?? ''))}</td><td>${a.clicks}</td><td>${a.attributed_installs}</td><td>${a.conversions}</td><td>${usd(a.revenue_usd)}</td><td>${usd(a.commission_usd)}</td></tr>`).join('\n')}</tbody></table>`;
}

function periodForm(s: SignedIn, ctx: AppContext, from: string, to: string): string {
  return `<form method="get" action="${e(ctx.path)}">${s.orgIds.length > 1 && s.orgId ? `<input type="hidden" name="org" value="${e(s.orgId)}">` : ''}
<label for="from">From (UTC day)</label><input id="from" name="from" type="date" value="${e(from)}">
<label for="to">To (UTC day)</label><input id="to" name="to" type="date" value="${e(to)}">
<button type="submit">Show period</button></form>`;
}

const chart = (id: string, label: string) => `<canvas id="${id}" role="img" aria-label="${e(label)} (the numbers are in the table below)"></canvas>`;

export async function analyticsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const campaign = visibleOrNotFoundPage(ctx, s, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  if (!campaign) return;
  const title = `Analytics: ${String(campaign.name)}`;
  const raw = { from: typeof ctx.query.from === 'string' && ctx.query.from ? ctx.query.from : undefined, to: typeof ctx.query.to === 'string' && ctx.query.to ? ctx.query.to : undefined };
  let daily: Daily, funnel: Funnel, top: Top;
  try {
    const q = assertValid<{ from?: string; to?: string }>(periodQuery, raw, 'query');
    [daily, funnel, top] = await Promise.all([
      dailyPerformanceOf(ctx, campaign, q), campaignFunnelOf(ctx, campaign, q), topAffiliatesOf(ctx, { ...q, campaign_id: campaign.id, limit: TOP_LIMIT }),
    ]);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return dashboardPage(ctx, s, err.status, title, `<div role="alert" class="error">${problemLines(err)}</div>${periodForm(s, ctx, raw.from ?? '', raw.to ?? '')}`);
  }
  const p = daily.period;
  const body = `<p class="muted">Production only (sandbox purchases never count), whole UTC days ${e(p.from)} to ${e(p.to)} (${p.days} days). The same numbers as the agent API (<code>GET /api/agent/campaigns/${e(campaign.id)}/daily-performance</code>, <code>…/funnel</code>, <code>/api/agent/analytics/top-affiliates</code>). <a href="${e(orgLink(s, `/dashboard/campaigns/${campaign.id}`))}">Campaign settings</a></p>
${periodForm(s, ctx, p.from, p.to)}
<h2 id="daily">Daily performance</h2>${chart('daily-chart', 'Daily clicks, attributed installs, trials, conversions and revenue')}${dailyTable(daily)}
<h2 id="funnel">Funnel</h2>${chart('funnel-chart', 'Funnel from clicks to conversions')}${funnelTable(funnel)}
<h2 id="top">Top affiliates (by conversions, then revenue)</h2>${top.affiliates.length ? chart('top-chart', 'Top affiliates by conversions and clicks') : ''}${topTable(top)}
<script type="application/json" id="analytics-data">${jsonForHtml({ daily, funnel, top })}</script>`;
  dashboardPage(ctx, s, 200, title, body, { scripts: [CHART_JS_PATH], script: CHART_SCRIPT });
}
