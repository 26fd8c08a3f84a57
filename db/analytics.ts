// Read-only analytics over the attribution funnel for the agent API. Sandbox never counts: conversion and money
// metrics read PRODUCTION rows only (test purchases aside); clicks and installs carry no environment.
// Periods are half-open UTC ranges [from 00:00Z, to + 1 day 00:00Z).
//
// Metric definitions:
//   clicks              referral link clicks (clicked_at in the period)
//   installs            installs recorded (created_at in the period); attributed_installs: those attributed to a code
//   trials              attributed production conversions that started as a free trial (first seen in the period)
//   conversions         attributed production conversions that paid: no trial, or a trial that converted
//   revenue_usd         net production revenue of commissions written in the period (earn rows minus reversals)
//   commission_usd      net production commission of the same rows
// A campaign's `stats` are these metrics over its whole life (no period, trials left out): the funnel of any period
// that covers the campaign's life answers the same numbers. All sources are read in one statement.
import type { Knex } from 'knex';
import { microsToUsd } from '../lib/money.js';

export interface Period {
  from: string;
  to: string;
}

export interface Metrics {
  clicks: number;
  installs: number;
  attributed_installs: number;
  trials: number;
  conversions: number;
  revenue_usd: number;
  commission_usd: number;
}

export interface Scope {
  appIds: readonly string[];
  campaignId?: string;
  campaignIds?: readonly string[];
}

type Bucket = 'total' | 'day' | 'code' | 'campaign';

export const emptyMetrics = (): Metrics => ({
  clicks: 0,
  installs: 0,
  attributed_installs: 0,
  trials: 0,
  conversions: 0,
  revenue_usd: 0,
  commission_usd: 0,
});

interface Source {
  table: string;
  ts: string;
  select: string;
  where?: (q: Knex.QueryBuilder) => void;
  toMetrics: (row: Record<string, string | number | null>) => Partial<Metrics>;
}

const n = (v: string | number | null | undefined) => Number(v ?? 0);

const SOURCES: Source[] = [
  { table: 'clicks', ts: 'clicked_at', select: 'count(*) as clicks', toMetrics: (r) => ({ clicks: n(r.clicks) }) },
  {
    table: 'installs',
    ts: 'created_at',
    select: 'count(*) as installs, count(*) filter (where attributed) as attributed_installs',
    toMetrics: (r) => ({ installs: n(r.installs), attributed_installs: n(r.attributed_installs) }),
  },
  {
    table: 'conversions',
    ts: 'created_at',
    select: 'count(*) filter (where trial) as trials, count(*) filter (where not trial or trial_converted_at is not null) as conversions',
    where: (q) => {
      void q.where({ environment: 'PRODUCTION', is_test: false, attributed: true });
    },
    toMetrics: (r) => ({ trials: n(r.trials), conversions: n(r.conversions) }),
  },
  {
    table: 'commissions',
    ts: 'created_at',
    select: 'coalesce(sum(revenue_usd_micros), 0) as revenue, coalesce(sum(commission_micros), 0) as commission',
    where: (q) => {
      void q.where({ environment: 'PRODUCTION' });
    },
    toMetrics: (r) => ({ revenue_usd: microsToUsd(n(r.revenue)), commission_usd: microsToUsd(n(r.commission)) }),
  },
];

const BUCKETS: Record<Bucket, (ts: string) => string> = {
  total: () => "'total'",
  day: (ts) => `to_char((${ts} at time zone 'UTC')::date, 'YYYY-MM-DD')`,
  code: () => 'creator_code_id',
  campaign: () => 'campaign_id',
};

/**
 * Every metric per bucket key (`total`, a `YYYY-MM-DD` day, a creator_code_id or a campaign_id) within the period
 * (null: all time); missing keys had no activity. One statement: each source grouped by the key, full-joined on it.
 */
export async function aggregateMetrics(db: Knex, scope: Scope, period: Period | null, bucket: Bucket): Promise<Map<string, Metrics>> {
  const out = new Map<string, Metrics>();
  if (scope.appIds.length === 0) return out;
  const grouped = SOURCES.map((s) => {
    const key = BUCKETS[bucket](s.ts);
    const q = db(s.table)
      .whereIn('app_id', scope.appIds)
      .select(db.raw(`${key} as k, ${s.select}`));
    if (period) {
      void q
        .where(s.ts, '>=', db.raw("(?::date)::timestamp at time zone 'UTC'", [period.from]))
        .where(s.ts, '<', db.raw("(?::date + 1)::timestamp at time zone 'UTC'", [period.to]));
    }
    if (bucket !== 'total') void q.groupByRaw(key);
    if (scope.campaignId) void q.where('campaign_id', scope.campaignId);
    if (scope.campaignIds) void q.whereIn('campaign_id', scope.campaignIds);
    if (bucket === 'code') void q.whereNotNull('creator_code_id');
    s.where?.(q);
    return q;
  });
  // Each source names its own columns, so `select *` over the join keeps them apart; `using (k)` merges the keys.
  const joined = grouped.map((_, i) => (i === 0 ? '? as s0' : `full join ? as s${i} using (k)`)).join(' ');
  const { rows } = await db.raw<{ rows: Record<string, string | number | null>[] }>(`select * from ${joined}`, grouped);
  for (const row of rows) out.set(String(row.k), Object.assign(emptyMetrics(), ...SOURCES.map((s) => s.toMetrics(row))));
  return out;
}

/** A campaign's lifetime production counters (spec "Campaign": `stats`); see the definitions at the top. */
export type CampaignStats = Omit<Metrics, 'trials'>;

/** Every listed campaign's stats in one statement, zeros for a campaign without activity. */
export async function lifetimeCampaignStats(
  db: Knex,
  campaigns: readonly { id: string; app_id: unknown }[],
): Promise<Map<string, CampaignStats>> {
  const scope = { appIds: [...new Set(campaigns.map((c) => String(c.app_id)))], campaignIds: campaigns.map((c) => c.id) };
  const metrics = await aggregateMetrics(db, scope, null, 'campaign');
  return new Map(
    campaigns.map((c) => {
      const { trials: _trials, ...stats } = metrics.get(c.id) ?? emptyMetrics();
      return [c.id, stats];
    }),
  );
}

/** Campaigns active now and creators holding an active code in the app. */
export async function appReach(db: Knex, appId: string): Promise<{ active_campaigns: number; creators: number }> {
  const [campaigns, creators] = await Promise.all([
    db('campaigns').where({ app_id: appId, status: 'active' }).count<{ count: string }[]>('* as count'),
    db('creator_codes').where({ app_id: appId, status: 'active' }).countDistinct<{ count: string }[]>('creator_id as count'),
  ]);
  return { active_campaigns: Number(campaigns[0]?.count ?? 0), creators: Number(creators[0]?.count ?? 0) };
}

export interface AffiliateCode {
  creator_code_id: string;
  code: string;
  status: string;
  creator_id: string;
  creator_name: string;
  campaign_id: string;
  campaign_name: string;
  app_id: string;
}

/** Every creator code in scope (removed codes too: their history still counts). */
export async function listAffiliateCodes(db: Knex, scope: Scope): Promise<AffiliateCode[]> {
  if (scope.appIds.length === 0) return [];
  const q = db('creator_codes as cc')
    .join('creators as cr', 'cr.id', 'cc.creator_id')
    .join('campaigns as c', 'c.id', 'cc.campaign_id')
    .whereIn('cc.app_id', scope.appIds)
    .select(
      'cc.id as creator_code_id',
      'cc.code',
      'cc.status',
      'cr.id as creator_id',
      'cr.name as creator_name',
      'c.id as campaign_id',
      'c.name as campaign_name',
      'cc.app_id',
    );
  if (scope.campaignId) void q.where('cc.campaign_id', scope.campaignId);
  return q;
}

/**
 * Production commission released to payable per UTC day of the period (`payable_at` in the day, the commission now
 * payable or paid): the overview's trend beside "payable now", a figure the analytics metrics do not have.
 */
export async function dailyReleasedMicros(db: Knex, orgId: string, period: Period): Promise<Map<string, number>> {
  const rows = await db('commissions')
    .where({ org_id: orgId, kind: 'earn', environment: 'PRODUCTION' })
    .whereIn('status', ['payable', 'paid'])
    .where('payable_at', '>=', db.raw("(?::date)::timestamp at time zone 'UTC'", [period.from]))
    .where('payable_at', '<', db.raw("(?::date + 1)::timestamp at time zone 'UTC'", [period.to]))
    .groupByRaw(BUCKETS.day('payable_at'))
    .select<{ k: string; micros: string }[]>(db.raw(`${BUCKETS.day('payable_at')} as k, sum(commission_micros) as micros`));
  return new Map(rows.map((r) => [r.k, Number(r.micros)]));
}
