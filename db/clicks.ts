// Referral clicks: recorded by the link route and by manual code entry, claimed at most once by an install.
import type { Knex } from 'knex';
import type { DeviceHints } from '../lib/device.js';
import type { Platform, ClickRow } from '../schema/types.js';
export interface NewClick {
  appId: string;
  campaignId: string;
  creatorCodeId: string;
  code: string;
  source: 'link' | 'manual';
  ip: string | null;
  userAgent: string | null;
  platform: Platform | null;
  osVersion?: string | null;
  language?: string | null;
  timezone?: string | null;
  screen?: string | null;
  referrer?: string | null;
  deviceHints?: Record<string, string>;
  /** When it happened: now, unless svc dev's demo history says (actions/demo-history.ts; no HTTP route passes it). */
  at?: Date;
}

export async function recordClick(db: Knex, c: NewClick): Promise<{ id: string; clicked_at: Date }> {
  const [row] = await db('clicks')
    .insert({
      app_id: c.appId,
      campaign_id: c.campaignId,
      creator_code_id: c.creatorCodeId,
      code: c.code,
      source: c.source,
      ip: c.ip,
      user_agent: c.userAgent,
      platform: c.platform,
      os_version: c.osVersion ?? null,
      language: c.language ?? null,
      timezone: c.timezone ?? null,
      screen: c.screen ?? null,
      referrer: c.referrer ?? null,
      device_hints: c.deviceHints ?? {},
      ...(c.at ? { clicked_at: c.at } : {}),
    })
    .returning<{ id: string; clicked_at: Date }[]>(['id', 'clicked_at']);
  return row!;
}

export function clickHints(click: ClickRow): DeviceHints {
  return {
    platform: click.platform,
    osVersion: click.os_version,
    language: click.language,
    timezone: click.timezone,
    screen: click.screen,
  };
}

export async function findClick(db: Knex, appId: string, clickId: string): Promise<ClickRow | undefined> {
  return db('clicks').where({ app_id: appId, id: clickId }).first<ClickRow | undefined>();
}

/**
 * Unclaimed link clicks from `ip` within the window whose campaign is still active, newest first: the candidates
 * of IP + device matching (the hint comparison is lib/device.ts).
 */
export async function findUnclaimedClicksFromIp(db: Knex, appId: string, ip: string, windowHours: number, limit = 20): Promise<ClickRow[]> {
  return db('clicks as k')
    .join('campaigns as c', 'c.id', 'k.campaign_id')
    .where({ 'k.app_id': appId, 'k.ip': ip, 'c.status': 'active' })
    .whereNull('k.claimed_at')
    .where('k.clicked_at', '>', db.raw(`now() - make_interval(hours => ?)`, [windowHours]))
    .orderBy('k.clicked_at', 'desc')
    .limit(limit)
    .select<ClickRow[]>('k.*');
}

/** Claims the click for the install unless someone claimed it first; true when this call won. */
export async function claimClick(db: Knex, clickId: string, installId: string): Promise<boolean> {
  const n = await db('clicks')
    .where('id', clickId)
    .whereNull('claimed_at')
    .update({ claimed_at: db.fn.now(), claimed_install_id: installId });
  return n === 1;
}
