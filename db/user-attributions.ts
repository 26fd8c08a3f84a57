// A user's creator: set by identify (click backfill), by a manual code entry, or by the first attributed purchase.
// Once a user converted for a creator they stay with that creator.
import type { Knex } from 'knex';
import { preparedRaw, preparedRows } from './prepared.js';
import type { UserAttributionRow } from '../schema/types.js';

/** Serialises the first purchases of one user (two purchases for two creators may race). */
export async function lockUser(db: Knex, appId: string, appUserId: string): Promise<void> {
  await preparedRaw(db, 'select pg_advisory_xact_lock(hashtextextended(?, 1))', [`${appId}:${appUserId}`]);
}

/** The attribution of the first of `userIds` that has one (an app user id, then its original id and aliases). */
export async function findUserAttribution(db: Knex, appId: string, userIds: string[]): Promise<UserAttributionRow | undefined> {
  if (userIds.length === 0) return undefined;
  const rows = await preparedRows<UserAttributionRow>(
    db,
    db('user_attributions').where('app_id', appId).whereIn('app_user_id', userIds).select('*'),
  );
  return userIds.map((id) => rows.find((r) => r.app_user_id === id)).find(Boolean);
}

export interface Conversion {
  creatorCodeId: string;
  campaignId: string;
  creatorId: string;
  referralCode: string;
  method: string;
  /** The store offer code that bound the user (method offer_code). */
  offerCodeId: string | null;
}

/** Records that the user converted for this creator (creating or re-pointing a not-yet-converted attribution). */
export async function markUserConverted(db: Knex, appId: string, appUserId: string, c: Conversion): Promise<void> {
  await preparedRows(
    db,
    db('user_attributions')
      .insert({
        app_id: appId,
        app_user_id: appUserId,
        creator_code_id: c.creatorCodeId,
        campaign_id: c.campaignId,
        creator_id: c.creatorId,
        referral_code: c.referralCode,
        method: c.method,
        offer_code_id: c.offerCodeId,
        converted_at: db.fn.now(),
      })
      .onConflict(['app_id', 'app_user_id'])
      .merge({
        creator_code_id: db.raw(
          'case when user_attributions.converted_at is null then excluded.creator_code_id else user_attributions.creator_code_id end',
        ),
        campaign_id: db.raw(
          'case when user_attributions.converted_at is null then excluded.campaign_id else user_attributions.campaign_id end',
        ),
        creator_id: db.raw(
          'case when user_attributions.converted_at is null then excluded.creator_id else user_attributions.creator_id end',
        ),
        referral_code: db.raw(
          'case when user_attributions.converted_at is null then excluded.referral_code else user_attributions.referral_code end',
        ),
        method: db.raw('case when user_attributions.converted_at is null then excluded.method else user_attributions.method end'),
        offer_code_id: db.raw(
          'case when user_attributions.converted_at is null then excluded.offer_code_id else user_attributions.offer_code_id end',
        ),
        converted_at: db.raw('coalesce(user_attributions.converted_at, now())'),
      }),
  );
}

/** TRANSFER: the new identity inherits the attribution of the old one unless it has its own. */
export async function transferUserAttribution(db: Knex, appId: string, fromIds: string[], toIds: string[]): Promise<boolean> {
  const source = await findUserAttribution(db, appId, fromIds);
  if (!source) return false;
  let moved = false;
  for (const to of toIds) {
    const rows = await db('user_attributions')
      .insert({ ...source, app_user_id: to, click_id: null, install_id: null })
      .onConflict(['app_id', 'app_user_id'])
      .ignore()
      .returning('app_user_id');
    moved ||= rows.length === 1;
  }
  return moved;
}
