// Who gets a new conversion (spec "Inbound webhooks": find the code, match campaign and creator). A user who
// already converted for a creator (in production) stays with that creator; else the purchase's `svc_code`; else the
// creator of the user's attributed click (identify backfill) or manual code entry; else the creator whose store
// offer code the purchase redeemed (issue 38: an offer attributes only a user nobody attributed, so an existing
// attribution stands and the event says the offer was another creator's). Codes attribute only while the campaign
// is active. An organic trial is asked again when it converts, and an organic subscription when it redeems an
// offer (apply.ts).
import type { Knex } from 'knex';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { matchOfferCode, offerLookup, type OfferMatch, type OfferSignal } from '../../lib/offer-code-match.js';
import { isCampaignActive } from '../../db/campaigns.js';
import { findActiveCreatorCode } from '../../db/creators.js';
import { findOfferCodeCandidates, type OfferCodeAttribution } from '../../db/offer-code-matches.js';
import { findUserAttribution, type Conversion } from '../../db/user-attributions.js';
import { lockUser, markUserConverted } from '../../db/user-attributions-writes.js';
import type { UserAttributionRow } from '../../schema/types.js';

/** Who gets the conversion and how (`offerCodeId`: the store offer code that bound it, method offer_code). */
export type Attribution = Conversion;

export const ORGANIC = 'no referral code (organic purchase)';
/** Attributed to the user's creator; the purchase redeemed another creator's offer code (a notice, not a failure). */
export const OFFER_OF_ANOTHER_CREATOR = 'offer code of another creator: the user stays with the creator they were attributed to';
const affiliateNotFound = (code: string) => `affiliate not found for code ${code}`;
const offerConflict = (values: string[]) =>
  `offer code conflict: the purchase's offers (${values.join(', ')}) belong to more than one creator; attributed to none`;

/** An event outcome that is no failure: processed, organic or attributed (with a notice). */
export const isProcessedOutcome = (error: string | null): boolean =>
  error === null || error === ORGANIC || error === OFFER_OF_ANOTHER_CREATOR;

type Resolved = { attribution: Attribution | null; error: string | null };

export async function resolveAttribution(trx: Knex.Transaction, appId: string, e: PurchaseEvent): Promise<Resolved> {
  const userIds = [...new Set([e.appUserId, e.originalAppUserId, ...e.aliases].filter((id): id is string => Boolean(id)))];
  if (e.appUserId) await lockUser(trx, appId, e.appUserId);
  const known = await findUserAttribution(trx, appId, userIds);
  const offer = e.offer ? await findOfferMatch(trx, appId, e.offer) : ({ kind: 'none' } as const);
  let result: Resolved;
  if (known?.converted_at) result = await fromKnown(trx, known);
  else if (e.referralCode) result = await fromCode(trx, appId, e.referralCode);
  else if (known) result = await fromKnown(trx, known);
  else result = { attribution: null, error: ORGANIC };
  if (!result.attribution && !known && offer.kind !== 'none') result = fromOffer(offer);
  else if (result.attribution && offer.kind === 'match' && offer.offerCode.creatorId !== result.attribution.creatorId)
    result = { ...result, error: OFFER_OF_ANOTHER_CREATOR };
  // Only a production purchase binds the user to the creator: a sandbox purchase (a tester, an App Review account)
  // must never decide who earns from the user's real purchases.
  if (result.attribution && e.appUserId && e.environment === 'PRODUCTION')
    await markUserConverted(trx, appId, e.appUserId, result.attribution);
  return result;
}

type OfferMatchOf = OfferMatch<OfferCodeAttribution>;

/** The app's active offer code the purchase redeemed (the rule: lib/offer-code-match.ts). */
async function findOfferMatch(trx: Knex.Transaction, appId: string, signal: OfferSignal): Promise<OfferMatchOf> {
  const { platform, values } = offerLookup(signal);
  const candidates = await findOfferCodeCandidates(trx, appId, platform, values);
  return matchOfferCode(signal, candidates);
}

function fromOffer(offer: Exclude<OfferMatchOf, { kind: 'none' }>): Resolved {
  if (offer.kind === 'conflict') return { attribution: null, error: offerConflict(offer.offerCodes.map((c) => c.value)) };
  const o = offer.offerCode;
  return {
    attribution: {
      campaignId: o.campaignId,
      creatorCodeId: o.creatorCodeId,
      creatorId: o.creatorId,
      referralCode: o.referralCode,
      method: 'offer_code',
      offerCodeId: o.id,
    },
    error: null,
  };
}

async function fromCode(trx: Knex.Transaction, appId: string, code: string): Promise<Resolved> {
  const cc = await findActiveCreatorCode(trx, appId, code);
  if (!cc) return { attribution: null, error: affiliateNotFound(code) };
  return {
    attribution: {
      campaignId: cc.campaign.id,
      creatorCodeId: cc.creatorCodeId,
      creatorId: cc.creator.id,
      referralCode: cc.code,
      method: 'purchase_code',
      offerCodeId: null,
    },
    error: null,
  };
}

async function fromKnown(trx: Knex.Transaction, known: UserAttributionRow): Promise<Resolved> {
  if (!(await isCampaignActive(trx, known.campaign_id))) return { attribution: null, error: affiliateNotFound(known.referral_code) };
  return {
    attribution: {
      campaignId: known.campaign_id,
      creatorCodeId: known.creator_code_id,
      creatorId: known.creator_id,
      referralCode: known.referral_code,
      method: known.method,
      offerCodeId: known.offer_code_id ?? null,
    },
    error: null,
  };
}
