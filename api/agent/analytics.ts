// Agent analytics (scope analytics:read). Sandbox is always excluded (see db/analytics.ts for every
// metric's definition). Period: `?from=YYYY-MM-DD&to=YYYY-MM-DD`, whole UTC days, both inclusive; `to` defaults to
// today (UTC) and `from` to 29 days before `to` (30 days); at most 366 days; from after to, an impossible date or a
// longer span is 422.
//   GET /apps/{app_id}/analytics/overview            totals plus active campaigns and creators of the app
//   GET /campaigns/{campaign_id}/funnel              clicks -> installs -> trials -> conversions, revenue, commission
//   GET /analytics/top-affiliates                    ?limit=1..50 (10) ?campaign_id= ?app_id=: creators ranked by
//                                                    production conversions, then revenue
//   GET /campaigns/{campaign_id}/daily-performance   one row per UTC day of the period, zero-filled
// The computations (`campaignFunnelOf`, `topAffiliatesOf`, `dailyPerformanceOf`) are exported so the dashboard's
// analytics page draws exactly what these endpoints answer.
import { toMicroPrecision } from '../../lib/money.js';
import { findApp, listAppsInOrgs } from '../../db/apps.js';
import { findCampaign } from '../../db/campaigns.js';
import { aggregateMetrics, appReach, emptyMetrics, listAffiliateCodes, type Metrics, type Period, type Scope } from '../../db/analytics.js';
import { ValidationError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { orgIdsOf, visibleTo } from './principal.js';

const MAX_PERIOD_DAYS = 366;
const DEFAULT_PERIOD_DAYS = 30;
const DAY_MS = 86_400_000;

const day = (description: string) => ({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });
const PERIOD_FIELDS = {
  from: day('First UTC day (inclusive), YYYY-MM-DD; default: 29 days before `to`'),
  to: day('Last UTC day (inclusive), YYYY-MM-DD; default: today (UTC)'),
} as const;

export const periodQuery = { type: 'object', properties: PERIOD_FIELDS } as const;

export const topAffiliatesQuery = {
  type: 'object',
  properties: {
    ...PERIOD_FIELDS,
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'Creators to list' },
    campaign_id: { type: 'string', minLength: 1, description: 'Only this campaign' },
    app_id: { type: 'string', minLength: 1, description: 'Only this app' },
  },
} as const;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function parseDay(value: string, field: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || isoDay(ms) !== value)
    throw new ValidationError([{ loc: ['query', field], msg: 'Not a calendar date (YYYY-MM-DD)', type: 'format' }]);
  return ms;
}

/** The validated period (inclusive UTC days) and its length in days. */
function periodOf(query: { from?: string; to?: string }, now = Date.now()): Period & { days: number } {
  const toMs = query.to ? parseDay(query.to, 'to') : Date.parse(`${isoDay(now)}T00:00:00Z`);
  const fromMs = query.from ? parseDay(query.from, 'from') : toMs - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS;
  const days = Math.round((toMs - fromMs) / DAY_MS) + 1;
  if (days < 1) throw new ValidationError([{ loc: ['query', 'from'], msg: '`from` must not be after `to`', type: 'value_error' }]);
  if (days > MAX_PERIOD_DAYS)
    throw new ValidationError([
      { loc: ['query', 'from'], msg: `The period may span at most ${MAX_PERIOD_DAYS} days`, type: 'value_error' },
    ]);
  return { from: isoDay(fromMs), to: isoDay(toMs), days };
}

const periodView = (p: Period & { days: number }) => ({ from: p.from, to: p.to, days: p.days, timezone: 'UTC', environment: 'PRODUCTION' });

const round = (m: Metrics): Metrics => ({
  ...m,
  revenue_usd: toMicroPrecision(m.revenue_usd),
  commission_usd: toMicroPrecision(m.commission_usd),
});

async function visibleCampaign(ctx: AppContext) {
  return visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
}

export async function analyticsOverviewHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const period = periodOf(inputOf<{ from?: string; to?: string }>(ctx));
  const [metrics, reach] = await Promise.all([
    aggregateMetrics(ctx.deps.db, { appIds: [app.id] }, period, 'total'),
    appReach(ctx.deps.db, app.id),
  ]);
  ctx.body = { app_id: app.id, period: periodView(period), ...round(metrics.get('total') ?? emptyMetrics()), ...reach };
}

type VisibleCampaign = Awaited<ReturnType<typeof visibleCampaign>>;
type PeriodInput = { from?: string; to?: string };

/** The campaign's funnel over the period (the body of GET /campaigns/{id}/funnel). */
export async function campaignFunnelOf(ctx: AppContext, campaign: VisibleCampaign, query: PeriodInput) {
  const period = periodOf(query);
  const metrics = await aggregateMetrics(ctx.deps.db, { appIds: [campaign.app_id as string], campaignId: campaign.id }, period, 'total');
  const m = round(metrics.get('total') ?? emptyMetrics());
  const rate = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : null);
  return {
    campaign_id: campaign.id,
    app_id: campaign.app_id as string,
    period: periodView(period),
    clicks: m.clicks,
    installs: m.installs,
    attributed_installs: m.attributed_installs,
    trials: m.trials,
    conversions: m.conversions,
    revenue_usd: m.revenue_usd,
    commission_usd: m.commission_usd,
    rates: { install_per_click: rate(m.attributed_installs, m.clicks), conversion_per_install: rate(m.conversions, m.attributed_installs) },
  };
}

export async function campaignFunnelHandler(ctx: AppContext): Promise<void> {
  ctx.body = await campaignFunnelOf(ctx, await visibleCampaign(ctx), inputOf<PeriodInput>(ctx));
}

export interface TopAffiliatesQuery {
  from?: string;
  to?: string;
  limit: number;
  campaign_id?: string;
  app_id?: string;
}

/** Creators ranked over the period (the body of GET /analytics/top-affiliates). */
export async function topAffiliatesOf(ctx: AppContext, query: TopAffiliatesQuery) {
  const period = periodOf(query);
  let scope: Scope;
  if (query.campaign_id) {
    const campaign = visibleTo(ctx, await findCampaign(ctx.deps.db, query.campaign_id), 'Campaign');
    if (query.app_id && query.app_id !== campaign.app_id) scope = { appIds: [] };
    else scope = { appIds: [campaign.app_id as string], campaignId: campaign.id };
  } else if (query.app_id) {
    scope = { appIds: [visibleTo(ctx, await findApp(ctx.deps.db, query.app_id), 'App').id] };
  } else {
    scope = { appIds: (await listAppsInOrgs(ctx.deps.db, orgIdsOf(ctx))).map((a) => a.id) };
  }
  const [codes, metrics] = await Promise.all([
    listAffiliateCodes(ctx.deps.db, scope),
    aggregateMetrics(ctx.deps.db, scope, period, 'code'),
  ]);
  const ranked = codes
    .map((c) => ({ ...c, ...round(metrics.get(c.creator_code_id) ?? emptyMetrics()) }))
    .sort((a, b) => b.conversions - a.conversions || b.revenue_usd - a.revenue_usd || b.clicks - a.clicks || a.code.localeCompare(b.code))
    .slice(0, query.limit)
    .map((c, i) => ({ rank: i + 1, ...c }));
  return {
    period: periodView(period),
    campaign_id: query.campaign_id ?? null,
    app_id: query.app_id ?? null,
    limit: query.limit,
    affiliates: ranked,
    count: ranked.length,
  };
}

export async function topAffiliatesHandler(ctx: AppContext): Promise<void> {
  ctx.body = await topAffiliatesOf(ctx, inputOf<TopAffiliatesQuery>(ctx));
}

/** One zero-filled row per UTC day of the period (the body of GET /campaigns/{id}/daily-performance). */
export async function dailyPerformanceOf(ctx: AppContext, campaign: VisibleCampaign, query: PeriodInput) {
  const period = periodOf(query);
  const metrics = await aggregateMetrics(ctx.deps.db, { appIds: [campaign.app_id as string], campaignId: campaign.id }, period, 'day');
  const start = Date.parse(`${period.from}T00:00:00Z`);
  const days = Array.from({ length: period.days }, (_, i) => {
    const date = isoDay(start + i * DAY_MS);
    return { date, ...round(metrics.get(date) ?? emptyMetrics()) };
  });
  return { campaign_id: campaign.id, app_id: campaign.app_id as string, period: periodView(period), days };
}

export async function dailyPerformanceHandler(ctx: AppContext): Promise<void> {
  ctx.body = await dailyPerformanceOf(ctx, await visibleCampaign(ctx), inputOf<PeriodInput>(ctx));
}
