// Writes of creators' offer codes (reads in db/offer-codes.ts), called through actions/offer-codes.ts. A value is
// unique per app and platform for good (retired rows keep it: offer_codes_app_platform_value_uq), so the insert is
// `on conflict do nothing`: a value taken before or at the same moment by another request is an answer (undefined),
// never an exception that could become a 500.
import type { Knex } from 'knex';
import type { OfferCodeFields } from '../lib/offer-codes.js';

export interface NewOfferCode extends OfferCodeFields {
  appId: string;
  campaignId: string;
  creatorId: string;
  creatorCodeId: string;
}

/** The new row's id, or undefined when the app already has this value on this platform (whoever holds it). */
export async function insertOfferCode(db: Knex, c: NewOfferCode): Promise<string | undefined> {
  const rows = await db('offer_codes')
    .insert({
      app_id: c.appId,
      campaign_id: c.campaignId,
      creator_id: c.creatorId,
      creator_code_id: c.creatorCodeId,
      platform: c.platform,
      match: c.match,
      value: c.value,
      custom_code: c.customCode,
      product_id: c.productId,
      base_plan_id: c.basePlanId,
    })
    .onConflict(['app_id', 'platform', 'value'])
    .ignore()
    .returning<{ id: string }[]>('id');
  return rows[0]?.id;
}

/** Retires an active code; a retired one stays as it was (its first retired_at). Whether this call retired it. */
export async function retireOfferCode(db: Knex, id: string): Promise<boolean> {
  const n = await db('offer_codes').where({ id, status: 'active' }).update({ status: 'retired', retired_at: db.fn.now() });
  return n > 0;
}
