// A creator code typed into the app (POST /sdk/set-referral-code): it counts as one click (source 'manual') and one
// attributed install (method 'manual_code') for the creator, plus the user's attribution when a user id is known.
import type { Knex } from 'knex';
import { claimClick, recordClick } from './clicks.js';
import type { ActiveCreatorCode } from './creators.js';
import { hasAttributedInstallFromIp, insertInstall, markInstallAttributed } from './installs.js';

export interface ManualCodeEntry {
  appId: string;
  creatorCode: ActiveCreatorCode;
  ip: string | null;
  userAgent: string | null;
  appUserId: string | null;
}

export type ManualCodeOutcome =
  { alreadyAttributed: true } | { alreadyAttributed: false; clickId: string; installId: string; userAttributed: boolean };

/**
 * Records the entry in one transaction, unless this creator's code already attributed an install from the same IP
 * within the app's attribution window: then nothing new is written (a retried or repeated entry must not inflate
 * the creator's clicks and installs).
 */
export async function recordManualCodeEntry(db: Knex, e: ManualCodeEntry): Promise<ManualCodeOutcome> {
  const cc = e.creatorCode;
  return db.transaction(async (trx) => {
    if (e.ip) {
      // Serialises entries of one code from one IP, so two concurrent taps cannot both pass the check below.
      await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`manual-code:${cc.creatorCodeId}:${e.ip}`]);
      const hours = await readAttributionWindowHours(trx, e.appId);
      if (await hasAttributedInstallFromIp(trx, e.appId, cc.creatorCodeId, e.ip, hours)) return { alreadyAttributed: true };
    }
    const click = await recordClick(trx, {
      appId: e.appId,
      campaignId: cc.campaign.id,
      creatorCodeId: cc.creatorCodeId,
      code: cc.code,
      source: 'manual',
      ip: e.ip,
      userAgent: e.userAgent,
      platform: null,
    });
    const install = await insertInstall(trx, { appId: e.appId, deviceId: null, platform: null, ip: e.ip, userAgent: e.userAgent });
    await markInstallAttributed(trx, install.id, {
      method: 'manual_code',
      clickId: click.id,
      creatorCodeId: cc.creatorCodeId,
      campaignId: cc.campaign.id,
      referralCode: cc.code,
    });
    // Claimed at once: otherwise track-install's IP matching could hand this click to a second install.
    await claimClick(trx, click.id, install.id);
    const userAttributed = e.appUserId ? await attributeUser(trx, e, click.id, install.id) : false;
    return { alreadyAttributed: false, clickId: click.id, installId: install.id, userAttributed };
  });
}

async function readAttributionWindowHours(db: Knex, appId: string): Promise<number> {
  const row = await db('apps').where('id', appId).first<{ attribution_window_hours: number }>('attribution_window_hours');
  return row.attribution_window_hours;
}

/** First attribution wins: a user already attributed (to any creator) keeps it. True when this call attributed. */
async function attributeUser(trx: Knex.Transaction, e: ManualCodeEntry, clickId: string, installId: string): Promise<boolean> {
  const cc = e.creatorCode;
  const rows = await trx('user_attributions')
    .insert({
      app_id: e.appId,
      app_user_id: e.appUserId,
      click_id: clickId,
      install_id: installId,
      creator_code_id: cc.creatorCodeId,
      campaign_id: cc.campaign.id,
      creator_id: cc.creator.id,
      referral_code: cc.code,
      method: 'manual_code',
    })
    .onConflict(['app_id', 'app_user_id'])
    .ignore()
    .returning<{ app_user_id: string }[]>(['app_user_id']);
  return rows.length === 1;
}
