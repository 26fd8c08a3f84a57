// identify: attach an app user id to an install and, when that install was referred, to its click's creator
// (the backfill a later purchase webhook without a code relies on). The first identify for a click wins.
import type { Knex } from 'knex';
import { findInstallByDevice, findRecentInstallsFromIp } from './installs.js';
import type { InstallRow } from '../schema/types.js';
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

export async function identifyUser(db: Knex, input: IdentifyInput): Promise<IdentifyOutcome> {
  const install = await findInstallFor(db, input);
  return db.transaction(async (trx) => {
    let backfilled = false;
    if (install?.attributed && install.click_id && install.creator_code_id && install.campaign_id) {
      const code = await trx('creator_codes').where('id', install.creator_code_id).first<{ creator_id: string }>('creator_id');
      const rows = await trx('user_attributions')
        .insert({
          app_id: input.appId,
          app_user_id: input.appUserId,
          click_id: install.click_id,
          install_id: install.id,
          creator_code_id: install.creator_code_id,
          campaign_id: install.campaign_id,
          creator_id: code.creator_id,
          referral_code: install.referral_code,
          method: install.attribution_method,
        })
        .onConflict()
        .ignore()
        .returning('app_user_id');
      backfilled = rows.length === 1;
    }
    await trx('identifies').insert({
      app_id: input.appId,
      app_user_id: input.appUserId,
      install_id: install?.id ?? null,
      click_id: install?.click_id ?? null,
      device_id: input.deviceId,
      ip: input.ip,
      properties: input.properties,
      attribution_backfilled: backfilled,
    });
    return { backfilled, installId: install?.id ?? null };
  });
}

/** With a device id: that exact install. Without: the install from this IP, only when exactly one is recent. */
async function findInstallFor(db: Knex, input: IdentifyInput): Promise<InstallRow | undefined> {
  if (input.deviceId) return findInstallByDevice(db, input.appId, input.deviceId);
  if (!input.ip) return undefined;
  const recent = await findRecentInstallsFromIp(db, input.appId, input.ip, input.windowHours, 2);
  return recent.length === 1 ? recent[0] : undefined;
}
