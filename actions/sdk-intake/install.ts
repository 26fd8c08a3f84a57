// track-install as one transaction: count the install once per device, then attribute it at most once, claiming
// at most one click (link parameters first, then IP + device matching). Concurrent installs cannot both claim one
// click: the claim is a conditional update and installs.click_id is unique.
import type { Knex } from 'knex';
import { isCampaignActive } from '../../db/campaigns.js';
import { claimClick, clickHints, findClick, findUnclaimedClicksFromIp } from '../../db/clicks.js';
import { insertInstall, lockInstall, markInstallAttributed, type NewInstall } from '../../db/installs.js';
import { cleanupCode } from '../../lib/codes.js';
import { hintsAgree, type DeviceHints } from '../../lib/device.js';
import type { ClickRow, InstallAttributionMethod } from '../../schema/types.js';

export interface TrackInstallInput extends NewInstall {
  windowHours: number;
  referralCode: string | null;
  clickId: string | null;
}

export type InstallDecision =
  | {
      attributed: true;
      installRecorded: boolean;
      reClaimed: boolean;
      method: InstallAttributionMethod;
      click: { id: string; code: string; clickedAt: Date };
    }
  | { attributed: false; installRecorded: boolean };

type Attributed = Omit<Extract<InstallDecision, { attributed: true }>, 'installRecorded'>;

export async function recordInstall(deps: { db: Knex }, input: TrackInstallInput): Promise<InstallDecision> {
  return deps.db.transaction(async (trx) => {
    const install = await insertInstall(trx, input.deviceId ? input : { ...input, deviceId: null });
    if (!install.created) {
      const existing = await lockInstall(trx, install.id);
      if (existing.attributed && existing.click_id) {
        const click = await findClick(trx, input.appId, existing.click_id);
        if (click)
          return { attributed: true, installRecorded: false, reClaimed: true, method: existing.attribution_method!, click: summary(click) };
      }
      // An organic device can still be attributed when it now arrives with explicit link parameters.
      const upgraded = await attributeByLink(trx, input, existing.id);
      return upgraded ? { ...upgraded, installRecorded: false } : { attributed: false, installRecorded: false };
    }
    const decision = (await attributeByLink(trx, input, install.id)) ?? (await attributeByIpAndDevice(trx, input, install.id));
    return decision ? { ...decision, installRecorded: true } : { attributed: false, installRecorded: true };
  });
}

/** `referral_code` + `click_id` carried into the app by the link: an exact attribution. */
async function attributeByLink(trx: Knex.Transaction, input: TrackInstallInput, installId: string): Promise<Attributed | undefined> {
  if (!input.clickId || !input.referralCode) return undefined;
  const click = await findClick(trx, input.appId, input.clickId);
  if (!click || click.code !== cleanupCode(input.referralCode) || !withinWindow(click, input.windowHours)) return undefined;
  if (!(await isCampaignActive(trx, click.campaign_id))) return undefined;
  return claim(trx, click, installId, 'link_param');
}

/** The most recent unclaimed click from the same IP whose device hints agree with the install's. */
async function attributeByIpAndDevice(trx: Knex.Transaction, input: TrackInstallInput, installId: string): Promise<Attributed | undefined> {
  if (!input.ip) return undefined;
  const installHints: DeviceHints = {
    platform: input.platform,
    osVersion: input.osVersion,
    language: input.language,
    timezone: input.timezone,
    screen: input.screenResolution,
  };
  const candidates = (await findUnclaimedClicksFromIp(trx, input.appId, input.ip, input.windowHours)).filter((c) =>
    hintsAgree(clickHints(c), installHints),
  );
  for (const click of candidates) {
    const won = await claim(trx, click, installId, 'ip_device_match');
    if (won) return won;
  }
  return undefined;
}

async function claim(
  trx: Knex.Transaction,
  click: ClickRow,
  installId: string,
  method: InstallAttributionMethod,
): Promise<Attributed | undefined> {
  if (!(await claimClick(trx, click.id, installId))) return undefined;
  await markInstallAttributed(trx, installId, {
    method,
    clickId: click.id,
    creatorCodeId: click.creator_code_id,
    campaignId: click.campaign_id,
    referralCode: click.code,
  });
  return { attributed: true, reClaimed: false, method, click: summary(click) };
}

function withinWindow(click: ClickRow, hours: number): boolean {
  return Date.now() - new Date(click.clicked_at).getTime() <= hours * 3_600_000;
}

function summary(click: ClickRow): { id: string; code: string; clickedAt: Date } {
  return { id: click.id, code: click.code, clickedAt: click.clicked_at };
}
