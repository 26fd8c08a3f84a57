// Who gets a new conversion (spec "Inbound webhooks": find the code, match campaign and creator). A user who
// already converted for a creator (in production) stays with that creator; else the purchase's `svc_code`; else the
// creator of the user's attributed click (identify backfill) or manual code entry. Codes attribute only while the
// campaign is active. An organic trial is asked again when it converts (apply.ts).
import type { Knex } from 'knex';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { isCampaignActive } from '../../db/campaigns.js';
import { findActiveCreatorCode } from '../../db/creators.js';
import { findUserAttribution, lockUser, markUserConverted } from '../../db/user-attributions.js';
import type { UserAttributionRow } from '../../schema/types.js';
export interface Attribution {
  campaignId: string;
  creatorCodeId: string;
  creatorId: string;
  referralCode: string;
  method: string;
}

export const ORGANIC = 'no referral code (organic purchase)';
const affiliateNotFound = (code: string) => `affiliate not found for code ${code}`;

export async function resolveAttribution(
  trx: Knex.Transaction,
  appId: string,
  e: PurchaseEvent,
): Promise<{ attribution: Attribution | null; error: string | null }> {
  const userIds = [...new Set([e.appUserId, e.originalAppUserId, ...e.aliases].filter((id): id is string => Boolean(id)))];
  if (e.appUserId) await lockUser(trx, appId, e.appUserId);
  const known = await findUserAttribution(trx, appId, userIds);
  let result: { attribution: Attribution | null; error: string | null };
  if (known?.converted_at) result = await fromKnown(trx, known);
  else if (e.referralCode) result = await fromCode(trx, appId, e.referralCode);
  else if (known) result = await fromKnown(trx, known);
  else result = { attribution: null, error: ORGANIC };
  // Only a production purchase binds the user to the creator: a sandbox purchase (a tester, an App Review account)
  // must never decide who earns from the user's real purchases.
  if (result.attribution && e.appUserId && e.environment === 'PRODUCTION')
    await markUserConverted(trx, appId, e.appUserId, result.attribution);
  return result;
}

async function fromCode(trx: Knex.Transaction, appId: string, code: string) {
  const cc = await findActiveCreatorCode(trx, appId, code);
  if (!cc) return { attribution: null, error: affiliateNotFound(code) };
  return {
    attribution: {
      campaignId: cc.campaign.id,
      creatorCodeId: cc.creatorCodeId,
      creatorId: cc.creator.id,
      referralCode: cc.code,
      method: 'purchase_code',
    },
    error: null,
  };
}

async function fromKnown(trx: Knex.Transaction, known: UserAttributionRow) {
  if (!(await isCampaignActive(trx, known.campaign_id))) return { attribution: null, error: affiliateNotFound(known.referral_code) };
  return {
    attribution: {
      campaignId: known.campaign_id,
      creatorCodeId: known.creator_code_id,
      creatorId: known.creator_id,
      referralCode: known.referral_code,
      method: known.method,
    },
    error: null,
  };
}
