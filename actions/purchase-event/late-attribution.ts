// The app's report attributes a conversion already applied as organic (docs/store-direct.md "Attribution survives
// the race"): a store notification bound to no user waited for the report, then was applied as organic; the report
// that comes later still carries the user and the referral code. Run by the conversion workflow's `attributeLate`
// update (activities/purchases/late-attribution.ts translates its errors), in the order of its events, in ONE
// transaction: the conversion is attributed and every paid period it recorded so far earns its commission (as it
// would have, with the holding period counted from now), or nothing changes. Safe to run twice: an attributed
// conversion is left alone, and a commission is unique per event.
import type { Knex } from 'knex';
import { awardReachedMilestones } from '../../db/bonus-awards-writes.js';
import { nextReleaseAt } from '../../db/commission-holding.js';
import { getAttributionSettings } from '../../db/apps.js';
import { findCampaignTerms } from '../../db/campaigns.js';
import { findConversionForUpdate, updateConversion } from '../../db/conversions-writes.js';
import { findPurchaseEvent, listUnearnedPaidPeriods } from '../../db/purchase-events.js';
import { markConversionEventsAttributed, setPurchaseEventError } from '../../db/purchase-events-writes.js';
import type { ConversionRow } from '../../schema/types.js';
import type { IngestEvent, LateAttributionResult } from '../../workflows/conversion-messages.js';
import { ORGANIC, resolveAttribution } from './attribution.js';
import { attributionColumns, dayMsOf, earn, factsOfRow, INSUFFICIENT_FUNDS, type EarnDeps, type Earned, type KnownTerms } from './earn.js';

const HOUR_MS = 3_600_000;

/** The answer, and the organization whose wallet an earn left below its auto-recharge threshold (the caller signals). */
export interface LateAttribution {
  result: LateAttributionResult;
  walletLowOrgId?: string;
}

export async function attributeConversionLate(deps: EarnDeps & { db: Knex }, report: IngestEvent): Promise<LateAttribution> {
  return deps.db.transaction((trx) => attributeLate(trx, deps, report));
}

async function attributeLate(
  trx: Knex.Transaction,
  deps: EarnDeps,
  { appId, conversionKey, event: e }: IngestEvent,
): Promise<LateAttribution> {
  const c = await findConversionForUpdate(trx, appId, conversionKey);
  if (!c) return { result: answer(undefined, 'not_attributed', 'no conversion was recorded for this purchase') };
  if (c.attributed) return { result: answer(c, 'already_attributed', null) };
  if (c.environment !== e.environment)
    return { result: answer(c, 'not_attributed', `the report is ${e.environment}, the conversion ${c.environment}`) };
  const late = await pastTheWindow(trx, c);
  const { attribution, error } = late ? { attribution: null, error: late } : await resolveAttribution(trx, appId, e);
  if (!attribution) {
    // The reported event says why it stays organic (the plain organic case already does).
    if (error && error !== ORGANIC) await setPurchaseEventError(trx, { appId, event: e }, error);
    return { result: answer(c, 'not_attributed', error) };
  }
  const appUserId = e.appUserId ?? e.originalAppUserId;
  const attributed = await updateConversion(trx, c.id, {
    ...attributionColumns(attribution, trx.fn.now()),
    ...(c.app_user_id ? {} : { app_user_id: appUserId }),
  });
  await markConversionEventsAttributed(trx, c.id, { referralCode: attribution.referralCode, appUserId, organicError: ORGANIC });
  const earned = await earnPaidPeriods(trx, deps, attributed);
  const unfunded = earned.filter((x) => x.error !== null);
  if (unfunded.length > 0) await setPurchaseEventError(trx, { ids: unfunded.map((x) => x.eventId) }, INSUFFICIENT_FUNDS, 'error');
  // Rules saved after the terms were read are committed by now: the earns took the organization lock.
  const check = earned.find((x) => x.milestonesToCheck)?.milestonesToCheck;
  if (check) await awardReachedMilestones(trx, check);
  const result = answer(attributed, 'attributed', unfunded.length > 0 ? INSUFFICIENT_FUNDS : null, earned.length);
  return {
    result: { ...result, nextReleaseAt: await nextReleaseAt(trx, c.id, dayMsOf(deps)) },
    walletLowOrgId: earned.find((x) => x.walletLowOrgId)?.walletLowOrgId,
  };
}

/**
 * The attribution window (the app's `attribution_window_hours`, the one SDK init announces) counts from the
 * conversion's first purchase (the store's purchase date, else when it was recorded): a report later than that
 * leaves the conversion organic. Answers the reason, or null within the window.
 */
async function pastTheWindow(trx: Knex.Transaction, c: ConversionRow): Promise<string | null> {
  const { attribution_window_hours: windowHours } = await getAttributionSettings(trx, c.app_id);
  const first = c.first_purchase_event_id ? await findPurchaseEvent(trx, c.first_purchase_event_id) : undefined;
  const since = Date.now() - (first?.purchased_at ?? c.created_at).getTime();
  if (since <= windowHours * HOUR_MS) return null;
  return (
    `reported ${Math.floor(since / HOUR_MS)} h after the purchase, past the ` +
    `app's attribution window of ${windowHours} h: the conversion stays organic`
  );
}

/** Every paid period recorded so far earns, as the purchase activity earns one (earn.ts), with the terms read once. */
async function earnPaidPeriods(trx: Knex.Transaction, deps: EarnDeps, c: ConversionRow): Promise<(Earned & { eventId: string })[]> {
  const periods = await listUnearnedPaidPeriods(trx, c.id);
  if (periods.length === 0) return [];
  const terms: KnownTerms = { campaignId: c.campaign_id!, ...(await findCampaignTerms(trx, c.campaign_id!)) };
  const earned: (Earned & { eventId: string })[] = [];
  const recorded = periods.flatMap((p) =>
    p.purchased_at && p.expires_at ? [{ startMs: p.purchased_at.getTime(), endMs: p.expires_at.getTime() }] : [],
  );
  for (const period of periods)
    earned.push({ ...(await earn(trx, deps, c, period.id, factsOfRow(period, recorded), undefined, terms)), eventId: period.id });
  return earned;
}

function answer(
  c: ConversionRow | undefined,
  outcome: LateAttributionResult['outcome'],
  reason: string | null,
  earned = 0,
): LateAttributionResult {
  return { outcome, reason, conversionId: c?.id ?? null, status: c?.status ?? null, referralCode: c?.referral_code ?? null, earned };
}
