// Installs: counted once per device_id, attributed at most once, each claiming at most one click.
import type { Knex } from 'knex';
import type { Platform, InstallAttributionMethod, InstallRow } from '../schema/types.js';

export interface NewInstall {
  appId: string;
  deviceId: string | null;
  platform: Platform | null;
  deviceBrand?: string | null;
  deviceModel?: string | null;
  osVersion?: string | null;
  appVersion?: string | null;
  screenResolution?: string | null;
  timezone?: string | null;
  language?: string | null;
  ip: string | null;
  /** The request came through a proxy while TRUST_PROXY is off: `ip` is the proxy's (api/context.ts). */
  ipViaUntrustedProxy?: boolean;
  userAgent: string | null;
  /** The Play Install Referrer's times as track-install carried them (Android; null: not reported). */
  referrerClickAt?: Date | null;
  installBeginAt?: Date | null;
  installBeginServerAt?: Date | null;
  /** When it happened: now, unless svc dev's demo history says (actions/demo-history.ts; no HTTP route passes it). */
  at?: Date;
}

/** Inserts the install; for a device seen before nothing is written and `created` is false. */
export async function insertInstall(db: Knex, i: NewInstall): Promise<{ id: string; created: boolean }> {
  const rows = await db('installs')
    .insert({
      app_id: i.appId,
      device_id: i.deviceId,
      platform: i.platform,
      device_brand: i.deviceBrand ?? null,
      device_model: i.deviceModel ?? null,
      os_version: i.osVersion ?? null,
      app_version: i.appVersion ?? null,
      screen_resolution: i.screenResolution ?? null,
      timezone: i.timezone ?? null,
      language: i.language ?? null,
      ip: i.ip,
      ip_via_untrusted_proxy: i.ipViaUntrustedProxy ?? false,
      user_agent: i.userAgent,
      referrer_click_at: i.referrerClickAt ?? null,
      install_begin_at: i.installBeginAt ?? null,
      install_begin_server_at: i.installBeginServerAt ?? null,
      ...(i.at ? { created_at: i.at } : {}),
    })
    .onConflict(db.raw('(app_id, device_id) where device_id is not null'))
    .ignore()
    .returning<{ id: string }[]>(['id']);
  if (rows[0]) return { id: rows[0].id, created: true };
  const existing = await findInstallByDevice(db, i.appId, i.deviceId!);
  return { id: existing!.id, created: false };
}

export async function findInstallByDevice(db: Knex, appId: string, deviceId: string): Promise<InstallRow | undefined> {
  return db('installs').where({ app_id: appId, device_id: deviceId }).first<InstallRow | undefined>();
}

export interface InstallAttribution {
  method: InstallAttributionMethod;
  clickId: string;
  creatorCodeId: string;
  campaignId: string;
  referralCode: string;
}

export async function markInstallAttributed(db: Knex, installId: string, a: InstallAttribution): Promise<void> {
  await db('installs').where('id', installId).update({
    attributed: true,
    attribution_method: a.method,
    click_id: a.clickId,
    creator_code_id: a.creatorCodeId,
    campaign_id: a.campaignId,
    referral_code: a.referralCode,
    attributed_at: db.fn.now(),
  });
}

/** Installs from `ip` within the last `hours`, newest first (identify's IP fallback). */
export async function findRecentInstallsFromIp(db: Knex, appId: string, ip: string, hours: number, limit = 5): Promise<InstallRow[]> {
  return db('installs')
    .where({ app_id: appId, ip })
    .where('created_at', '>', db.raw('now() - make_interval(hours => ?)', [hours]))
    .orderBy('created_at', 'desc')
    .limit(limit)
    .select<InstallRow[]>('*');
}

/** Whether this creator's code already attributed an install from `ip` within the window. */
export async function hasAttributedInstallFromIp(
  db: Knex,
  appId: string,
  creatorCodeId: string,
  ip: string,
  hours: number,
): Promise<boolean> {
  const row = await db('installs')
    .where({ app_id: appId, creator_code_id: creatorCodeId, ip, attributed: true })
    .where('created_at', '>', db.raw('now() - make_interval(hours => ?)', [hours]))
    .first('id');
  return row !== undefined;
}

/** The install's row, locked until the transaction ends (a device's repeat track-install decides on it alone). */
export async function lockInstall(trx: Knex.Transaction, installId: string): Promise<InstallRow> {
  return trx('installs').where('id', installId).forUpdate().first<InstallRow>();
}

/** Serialises entries of one code from one IP, so two concurrent taps cannot both pass the already-attributed check. */
export async function lockCodeEntriesFromIp(trx: Knex.Transaction, creatorCodeId: string, ip: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`manual-code:${creatorCodeId}:${ip}`]);
}
