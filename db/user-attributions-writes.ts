// A user's attribution written (read in db/user-attributions.ts): by the client paths (identify's click backfill, a
// code typed into the app) and by the purchase path (the user's lock, converted, transferred to a new identity).
import type { Knex } from 'knex';
import { preparedRaw, preparedRows } from './prepared.js';
import { findUserAttribution, type Conversion } from './user-attributions.js';

export interface NewUserAttribution {
  appId: string;
  appUserId: string;
  clickId: string;
  installId: string;
  creatorCodeId: string;
  campaignId: string;
  creatorId: string;
  referralCode: string;
  method: string;
}

/**
 * First attribution wins: a user already attributed (to any creator) keeps it, and a click already backing another
 * user's attribution backs no second one. True when this call attributed.
 */
export async function attributeUserOnce(db: Knex, a: NewUserAttribution): Promise<boolean> {
  const rows = await db('user_attributions')
    .insert({
      app_id: a.appId,
      app_user_id: a.appUserId,
      click_id: a.clickId,
      install_id: a.installId,
      creator_code_id: a.creatorCodeId,
      campaign_id: a.campaignId,
      creator_id: a.creatorId,
      referral_code: a.referralCode,
      method: a.method,
    })
    .onConflict()
    .ignore()
    .returning('app_user_id');
  return rows.length === 1;
}

/** Serialises the first purchases of one user (two purchases for two creators may race). */
export async function lockUser(db: Knex, appId: string, appUserId: string): Promise<void> {
  await preparedRaw(db, 'select pg_advisory_xact_lock(hashtextextended(?, 1))', [`${appId}:${appUserId}`]);
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
