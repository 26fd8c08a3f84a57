// The purchase pipeline's read of creators' store offer codes (issue 38): the app's offer codes a purchase's offer
// signal can name (lib/offer-code-match.ts decides which one it matches). Only codes that may attribute a new
// purchase: active, of an active membership in an active campaign (a retired code keeps its past attributions, and
// attributes nothing new, like a removed creator code). The registry (db/offer-codes.ts) owns everything else.
import type { Knex } from 'knex';
import type { OfferCodeCandidate } from '../lib/offer-code-match.js';
import { preparedRows } from './prepared.js';

/** A candidate with what an attribution by it records. */
export interface OfferCodeAttribution extends OfferCodeCandidate {
  campaignId: string;
  creatorId: string;
  /** The membership's referral code (the conversion's and commission's `referral_code`). */
  referralCode: string;
}

export async function findOfferCodeCandidates(
  db: Knex,
  appId: string,
  platform: 'ios' | 'android',
  values: readonly string[],
): Promise<OfferCodeAttribution[]> {
  if (values.length === 0) return [];
  const rows = await preparedRows<Record<string, string | null>>(
    db,
    db('offer_codes as o')
      .join('creator_codes as cc', 'cc.id', 'o.creator_code_id')
      .join('campaigns as c', 'c.id', 'o.campaign_id')
      .where({ 'o.app_id': appId, 'o.platform': platform, 'o.status': 'active', 'cc.status': 'active', 'c.status': 'active' })
      .whereIn('o.value', values)
      .orderBy('o.created_at')
      .select(
        'o.id',
        'o.platform',
        'o.match',
        'o.value',
        'o.product_id',
        'o.base_plan_id',
        'o.creator_code_id',
        'o.campaign_id',
        'o.creator_id',
        'cc.code as referral_code',
      ),
  );
  return rows.map((r) => ({
    id: r.id!,
    platform: r.platform as OfferCodeCandidate['platform'],
    match: r.match as OfferCodeCandidate['match'],
    value: r.value!,
    productId: r.product_id ?? null,
    basePlanId: r.base_plan_id ?? null,
    creatorCodeId: r.creator_code_id!,
    campaignId: r.campaign_id!,
    creatorId: r.creator_id!,
    referralCode: r.referral_code!,
  }));
}
