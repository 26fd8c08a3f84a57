// An identify call's own row (evidence for the checklist and for a later purchase's user binding).
import type { Knex } from 'knex';

export interface NewIdentify {
  appId: string;
  appUserId: string;
  installId: string | null;
  clickId: string | null;
  deviceId: string | null;
  ip: string | null;
  properties: Record<string, unknown>;
  attributionBackfilled: boolean;
}

export async function insertIdentify(db: Knex, i: NewIdentify): Promise<void> {
  await db('identifies').insert({
    app_id: i.appId,
    app_user_id: i.appUserId,
    install_id: i.installId,
    click_id: i.clickId,
    device_id: i.deviceId,
    ip: i.ip,
    properties: i.properties,
    attribution_backfilled: i.attributionBackfilled,
  });
}
