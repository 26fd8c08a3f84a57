// A creator code typed into the app (POST /sdk/set-referral-code): it counts as one click (source 'manual') and one
// attributed install (method 'manual_code') for the creator, plus the user's attribution when a user id is known.
import type { Knex } from 'knex';
import { getAttributionSettings } from '../../db/apps.js';
import { claimClick, recordClick } from '../../db/clicks.js';
import type { ActiveCreatorCode } from '../../db/creators.js';
import { hasAttributedInstallFromIp, insertInstall, lockCodeEntriesFromIp, markInstallAttributed } from '../../db/installs.js';
import { attributeUserOnce } from '../../db/user-attributions-writes.js';

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
export async function enterReferralCode(deps: { db: Knex }, e: ManualCodeEntry): Promise<ManualCodeOutcome> {
  const cc = e.creatorCode;
  return deps.db.transaction(async (trx) => {
    if (e.ip) {
      await lockCodeEntriesFromIp(trx, cc.creatorCodeId, e.ip);
      const hours = (await getAttributionSettings(trx, e.appId)).attribution_window_hours;
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
    const userAttributed = e.appUserId
      ? await attributeUserOnce(trx, {
          appId: e.appId,
          appUserId: e.appUserId,
          clickId: click.id,
          installId: install.id,
          creatorCodeId: cc.creatorCodeId,
          campaignId: cc.campaign.id,
          creatorId: cc.creator.id,
          referralCode: cc.code,
          method: 'manual_code',
        })
      : false;
    return { alreadyAttributed: false, clickId: click.id, installId: install.id, userAttributed };
  });
}
