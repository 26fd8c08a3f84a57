// The attributions the client paths write (identify's click backfill, a code typed into the app). The purchase
// path's writes (lock, converted, transfer) are in db/user-attributions.ts beside its read.
import type { Knex } from 'knex';

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
