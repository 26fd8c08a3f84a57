// identify: attach an app user id to an install and, when that install was referred, to its click's creator
// (the backfill a later purchase webhook without a code relies on). The first identify for a click wins.
import type { Knex } from 'knex';
import { creatorOfCode } from '../../db/creators.js';
import { insertIdentify } from '../../db/identifies-writes.js';
import { findInstallByDevice, findRecentInstallsFromIp } from '../../db/installs.js';
import { attributeUserOnce } from '../../db/user-attributions-writes.js';
import type { InstallRow } from '../../schema/types.js';

export interface IdentifyInput {
  appId: string;
  appUserId: string;
  deviceId: string | null;
  ip: string | null;
  properties: Record<string, unknown>;
  windowHours: number;
}

export interface IdentifyOutcome {
  backfilled: boolean;
  installId: string | null;
}

export async function identifyUser(deps: { db: Knex }, input: IdentifyInput): Promise<IdentifyOutcome> {
  const install = await findInstallFor(deps.db, input);
  return deps.db.transaction(async (trx) => {
    const backfilled = await backfillAttribution(trx, input, install);
    await insertIdentify(trx, {
      appId: input.appId,
      appUserId: input.appUserId,
      installId: install?.id ?? null,
      clickId: install?.click_id ?? null,
      deviceId: input.deviceId,
      ip: input.ip,
      properties: input.properties,
      attributionBackfilled: backfilled,
    });
    return { backfilled, installId: install?.id ?? null };
  });
}

/** A referred install hands its click's creator to the user, unless the user or the click already has one. */
async function backfillAttribution(trx: Knex.Transaction, input: IdentifyInput, install: InstallRow | undefined): Promise<boolean> {
  if (!install?.attributed || !install.click_id || !install.creator_code_id || !install.campaign_id) return false;
  return attributeUserOnce(trx, {
    appId: input.appId,
    appUserId: input.appUserId,
    clickId: install.click_id,
    installId: install.id,
    creatorCodeId: install.creator_code_id,
    campaignId: install.campaign_id,
    creatorId: await creatorOfCode(trx, install.creator_code_id),
    referralCode: install.referral_code!,
    method: install.attribution_method!,
  });
}

/** With a device id: that exact install. Without: the install from this IP, only when exactly one is recent. */
async function findInstallFor(db: Knex, input: IdentifyInput): Promise<InstallRow | undefined> {
  if (input.deviceId) return findInstallByDevice(db, input.appId, input.deviceId);
  if (!input.ip) return undefined;
  const recent = await findRecentInstallsFromIp(db, input.appId, input.ip, input.windowHours, 2);
  return recent.length === 1 ? recent[0] : undefined;
}
