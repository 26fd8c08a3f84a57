// Creators' store offer codes (CONTRACT.md "Creator offer codes"): POST and GET
// /api/agent/campaigns/{campaign_id}/affiliates/{creator_id}/offer-codes add one and list the creator's codes in the
// campaign; POST /api/agent/offer-codes/{offer_code_id}/retire retires one. The rules are lib/offer-codes.ts's, the
// writes actions/offer-codes.ts's; the dashboard serves the same handlers (api/dashboard/routes.ts).
import { addOfferCode, retireOfferCode } from '../../actions/offer-codes.js';
import { findCampaign } from '../../db/campaigns.js';
import { findCampaignMembership, findOfferCode, listCampaignCreatorOfferCodes, type OfferCodeRow } from '../../db/offer-codes.js';
import { NotFoundError } from '../../errors/http-errors.js';
import { offerRedeemUrl, type OfferCodeInput } from '../../lib/offer-codes.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { visibleTo } from './principal.js';

const optionalText = (description: string) => ({ type: ['string', 'null'], maxLength: 200, description }) as const;

export const addOfferCodeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['platform', 'value'],
  properties: {
    platform: { type: 'string', enum: ['ios', 'android'] },
    value: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        "ios: the App Store offer's reference name (1 to 64 characters; one offer per creator, Apple sends only this " +
        'name); android: the Play offer id (with product_id and base_plan_id) or an offer tag declared for this creator alone',
    },
    custom_code: optionalText('What people type (letters and digits): builds the redemption link, never matched'),
    product_id: optionalText('android offer id only: the Play subscription product id'),
    base_plan_id: optionalText('android offer id only: the Play base plan id'),
  },
} as const;

/** An offer code as every surface answers it (the redemption link built from the custom code). */
export function offerCodeView(row: OfferCodeRow) {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    creator_id: row.creator_id,
    platform: row.platform,
    match: row.match,
    value: row.value,
    custom_code: row.custom_code,
    product_id: row.product_id,
    base_plan_id: row.base_plan_id,
    redeem_url: offerRedeemUrl(row, row.app_apple_id),
    status: row.status,
    retired_at: row.retired_at,
    created_at: row.created_at,
  };
}

async function visibleCampaignId(ctx: AppContext): Promise<string> {
  return visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign').id;
}

export async function addOfferCodeHandler(ctx: AppContext): Promise<void> {
  const campaignId = await visibleCampaignId(ctx);
  const row = await addOfferCode(ctx.deps, {
    campaignId,
    creatorId: ctx.params.creator_id as string,
    code: inputOf<OfferCodeInput>(ctx),
  });
  ctx.status = 201;
  ctx.body = offerCodeView(row);
}

export async function listOfferCodesHandler(ctx: AppContext): Promise<void> {
  const campaignId = await visibleCampaignId(ctx);
  const creatorId = ctx.params.creator_id as string;
  // Past members keep their list (retired codes and their attributions); someone who never joined is not found.
  if (!(await findCampaignMembership(ctx.deps.db, campaignId, creatorId))) {
    throw new NotFoundError('This creator is not a member of this campaign.');
  }
  const rows = await listCampaignCreatorOfferCodes(ctx.deps.db, campaignId, creatorId);
  ctx.body = { campaign_id: campaignId, creator_id: creatorId, offer_codes: rows.map(offerCodeView), count: rows.length };
}

export async function retireOfferCodeHandler(ctx: AppContext): Promise<void> {
  const code = visibleTo(ctx, await findOfferCode(ctx.deps.db, ctx.params.offer_code_id as string), 'Offer code');
  ctx.body = offerCodeView(await retireOfferCode(ctx.deps, code));
}
