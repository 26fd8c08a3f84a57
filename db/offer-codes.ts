// Creators' store offer codes (schema/migrations/0050_offer_codes.ts), read for the registry's surfaces: one
// creator's codes in one campaign (agent API), a creator's codes in one organization (dashboard creator page) or
// everywhere (the creator's own portal), one code with its organization (tenancy), and whether an app has an active
// one (integration status). Each row carries the app's numeric Apple id so the caller can build the redemption link
// (lib/offer-codes.ts offerRedeemUrl). Written in db/offer-codes-writes.ts through actions/offer-codes.ts; the
// pipeline's matching reads live elsewhere (db/offer-code-matches.ts).
import type { Knex } from 'knex';

export interface OfferCodeRow {
  id: string;
  app_id: string;
  org_id: string;
  campaign_id: string;
  campaign_name: string;
  creator_id: string;
  creator_code_id: string;
  platform: 'ios' | 'android';
  match: 'reference_name' | 'offer_id' | 'offer_tag';
  value: string;
  custom_code: string | null;
  product_id: string | null;
  base_plan_id: string | null;
  status: 'active' | 'retired';
  retired_at: Date | null;
  created_at: Date;
  /** The app's numeric Apple id (apple-meta or the iOS credential upload), for App Store redemption links. */
  app_apple_id: string | null;
}

function offerCodes(db: Knex) {
  return db('offer_codes as o')
    .join('apps as a', 'a.id', 'o.app_id')
    .join('campaigns as c', 'c.id', 'o.campaign_id')
    .select<OfferCodeRow[]>(
      'o.id',
      'o.app_id',
      'a.org_id',
      'o.campaign_id',
      'c.name as campaign_name',
      'o.creator_id',
      'o.creator_code_id',
      'o.platform',
      'o.match',
      'o.value',
      'o.custom_code',
      'o.product_id',
      'o.base_plan_id',
      'o.status',
      'o.retired_at',
      'o.created_at',
      db.raw("coalesce(a.apple_meta->>'app_apple_id', a.app_store_id) as app_apple_id"),
    )
    .orderBy([
      { column: 'o.created_at', order: 'asc' },
      { column: 'o.id', order: 'asc' },
    ]);
}

export async function listCampaignCreatorOfferCodes(db: Knex, campaignId: string, creatorId: string): Promise<OfferCodeRow[]> {
  return offerCodes(db).where({ 'o.campaign_id': campaignId, 'o.creator_id': creatorId });
}

/** A creator's codes in one organization's apps (dashboard), or in every app (`orgId` null: the creator's portal). */
export async function listCreatorOfferCodes(db: Knex, creatorId: string, orgId: string | null): Promise<OfferCodeRow[]> {
  const q = offerCodes(db).where('o.creator_id', creatorId);
  return orgId === null ? q : q.where('a.org_id', orgId);
}

export async function listAppOfferCodes(db: Knex, appId: string): Promise<OfferCodeRow[]> {
  return offerCodes(db).where('o.app_id', appId);
}

export async function findOfferCode(db: Knex, id: string): Promise<OfferCodeRow | undefined> {
  const [row] = await offerCodes(db).where('o.id', id);
  return row;
}

/** Platforms on which the app has at least one active offer code. */
export async function activeOfferCodePlatforms(db: Knex, appId: string): Promise<('ios' | 'android')[]> {
  const rows = await db('offer_codes').where({ app_id: appId, status: 'active' }).distinct<{ platform: 'ios' | 'android' }[]>('platform');
  return rows.map((r) => r.platform).sort();
}

/** The creator's membership of the campaign (their creator code there), whatever its status; undefined when none. */
export async function findCampaignMembership(
  db: Knex,
  campaignId: string,
  creatorId: string,
): Promise<{ id: string; app_id: string; status: string } | undefined> {
  return db('creator_codes')
    .where({ campaign_id: campaignId, creator_id: creatorId })
    .first<{ id: string; app_id: string; status: string } | undefined>('id', 'app_id', 'status');
}
