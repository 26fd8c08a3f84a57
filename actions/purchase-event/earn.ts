// Earning one paid period's commission on an attributed conversion: the campaign's terms, the amounts, the earn and
// its reservation (db/commissions.ts), the bonus milestones. Shared by the event that pays (apply.ts) and by an
// organic conversion attributed late by the app's report (late-attribution.ts), so both earn alike.
import type { Knex } from 'knex';
import { computeCommission } from '../../lib/commission.js';
import { commissionBase, storefrontOfRaw, type PaidPeriod } from '../../lib/commission-basis.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { toMicros } from '../../lib/money.js';
import type { UnearnedPaidPeriod } from '../../db/purchase-events.js';
import { awardReachedMilestones } from '../../db/bonus-awards-writes.js';
import { findCampaignTerms, type CampaignTerms } from '../../db/campaigns.js';
import { earnCommission } from '../../db/commissions.js';
import type { ConversionRow } from '../../schema/types.js';
import type { Attribution } from './attribution.js';
import { providerEmailOf, reviewOfPurchase } from './signals.js';

export const INSUFFICIENT_FUNDS = 'insufficient wallet balance';

/** What earning needs of the purchase activities' dependencies. */
export interface EarnDeps {
  platformFeePercent: number;
  /** The length of one holding-period day (HOLDING_PERIOD_DAY_MS; one real day outside tests). */
  holdingDayMs?: number;
}

const ONE_DAY_MS = 86_400_000;
export const dayMsOf = (deps: EarnDeps) => deps.holdingDayMs ?? ONE_DAY_MS;

/** The campaign terms read with the conversion's lock, for the campaign they belong to. */
export type KnownTerms = CampaignTerms & { campaignId: string };

export interface Earned {
  conversion: ConversionRow;
  error: string | null;
  /** The earn left this organization's wallet below its auto-recharge threshold. */
  walletLowOrgId?: string;
  /**
   * A production earn whose campaign had no active bonus rule when its terms were read (before the organization
   * lock). A rule saved since is committed before this earn got the lock (db/bonus-rules.ts), so a statement that
   * runs under the lock tells whether one exists now; only then are milestones awarded.
   */
  milestonesToCheck?: { campaignId: string; creatorId: string };
}

/** What a paid period's commission basis reads of its event (lib/commission-basis.ts). */
export interface PaidPeriodFacts {
  revenueMicros: number;
  store: string | null;
  storefront: string | null;
  /** The provider's fractions of the price, when the event carried both. */
  provider: { storeFeeFraction: number; taxFraction: number } | null;
  periodStartMs: number | null;
  /** The subscription's earlier paid periods (Apple's second-year fee); empty where no estimate needs them. */
  earlierPaidPeriods: readonly PaidPeriod[];
  /** The provider's `$email` subscriber attribute, for the self-referral signal (null: none came). */
  providerEmail: string | null;
}

const fractions = (fee: unknown, tax: unknown) =>
  fee === null || fee === undefined || tax === null || tax === undefined
    ? null
    : { storeFeeFraction: Number(fee), taxFraction: Number(tax) };

/** The facts of the event being applied. */
export function factsOfEvent(e: PurchaseEvent, earlierPaidPeriods: readonly PaidPeriod[]): PaidPeriodFacts {
  return {
    revenueMicros: toMicros(e.priceUsd ?? 0),
    store: e.store,
    storefront: storefrontOfRaw(e.raw),
    provider: fractions(e.storeFeeFraction, e.taxFraction),
    periodStartMs: e.purchasedAtMs ?? e.eventTimestampMs,
    earlierPaidPeriods,
    providerEmail: providerEmailOf(e.subscriberAttributes),
  };
}

/** The facts of a recorded paid period (late attribution), its earlier ones given. */
export function factsOfRow(p: UnearnedPaidPeriod, earlierPaidPeriods: readonly PaidPeriod[]): PaidPeriodFacts {
  return {
    revenueMicros: p.price_usd_micros,
    store: p.store,
    storefront: storefrontOfRaw(p.raw),
    provider: fractions(p.store_fee_fraction, p.tax_fraction),
    periodStartMs: p.purchased_at?.getTime() ?? Number(p.event_timestamp_ms),
    earlierPaidPeriods,
    // A recorded period's attributes are not kept apart from its raw body: the identified user's email still counts.
    providerEmail: null,
  };
}

export async function earn(
  trx: Knex.Transaction,
  deps: EarnDeps,
  c: ConversionRow,
  eventId: string,
  period: PaidPeriodFacts,
  at: Date | undefined,
  terms?: KnownTerms,
): Promise<Earned> {
  // Read with the lock already, unless this event attributed the conversion (its campaign is new to this event).
  const campaign = terms?.campaignId === c.campaign_id ? terms : await findCampaignTerms(trx, c.campaign_id!);
  // The base is computed here, before the one statement that earns (db/commissions.ts), from the terms read now: a
  // basis changed later applies to later events only.
  const basis = commissionBase({
    basis: campaign.commission_basis ?? 'gross',
    grossMicros: period.revenueMicros,
    store: period.store,
    kind: c.kind,
    storefront: period.storefront,
    provider: period.provider,
    fees: {
      appleSmallBusiness: campaign.apple_small_business_program ?? false,
      googleFeeTierEnrolled: campaign.google_play_fee_tier_enrolled ?? false,
    },
    earlierPaidPeriods: period.earlierPaidPeriods,
    periodStartMs: period.periodStartMs,
  });
  const onBase = computeCommission(basis.baseMicros, campaign.commission_percentage, deps.platformFeePercent);
  // The fraud signals are read now, before earnCommission takes the organization lock, and written by its statement.
  const review =
    c.environment === 'PRODUCTION'
      ? await reviewOfPurchase(trx, {
          appId: c.app_id,
          appUserId: c.app_user_id,
          creatorId: c.creator_id!,
          creatorCodeId: c.creator_code_id,
          at: at ?? new Date(),
          providerEmail: period.providerEmail,
          settings: campaign.fraud_signal_actions,
        })
      : null;
  const { funded, walletLow } = await earnCommission(trx, {
    conversion: { ...c, campaign_id: c.campaign_id!, creator_id: c.creator_id! },
    purchaseEventId: eventId,
    // Revenue stays the price (analytics count it); the commission and fee are on the base.
    amounts: { ...onBase, revenueMicros: period.revenueMicros },
    basis,
    commissionPercentage: campaign.commission_percentage,
    platformFeePercent: deps.platformFeePercent,
    holdMs: campaign.holding_period_days * dayMsOf(deps),
    at,
    review,
  });
  const milestones = { campaignId: c.campaign_id!, creatorId: c.creator_id! };
  if (c.environment === 'PRODUCTION' && campaign.has_bonus_rules) await awardReachedMilestones(trx, milestones);
  return {
    conversion: c,
    error: funded ? null : INSUFFICIENT_FUNDS,
    ...(walletLow ? { walletLowOrgId: c.org_id } : {}),
    // The terms were read before the organization lock: rules saved meanwhile are looked for under it.
    ...(c.environment === 'PRODUCTION' && !campaign.has_bonus_rules ? { milestonesToCheck: milestones } : {}),
  };
}

/** The conversion's columns of an attribution (`now`: when it was attributed). */
export function attributionColumns(a: Attribution, now: Knex.Raw | Date): Record<string, unknown> {
  return {
    attributed: true,
    campaign_id: a.campaignId,
    creator_code_id: a.creatorCodeId,
    creator_id: a.creatorId,
    referral_code: a.referralCode,
    attribution_method: a.method,
    offer_code_id: a.offerCodeId,
    attributed_at: now,
  };
}
