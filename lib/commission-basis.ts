// The amount a commission percentage applies to (docs/purchase-pipeline.md "Commission basis"), pure. A campaign's
// `commission_basis` is `gross` (the customer's price, the rule before bases existed) or `proceeds` (what the
// developer receives: tax out of the price first, then the store's fee on the price without tax). Proceeds are
// EXACT when the event carries the subscription provider's fractions (RevenueCat's `tax_percentage` and
// `commission_percentage`, each a 0-1 fraction of the price, stored as tax_fraction and store_fee_fraction), else
// ESTIMATED from the app's fee settings and the storefront's tax (lib/storefront-tax.ts). Every amount is micro-USD
// rounded once, half away from zero, to the micro (lib/money.ts): the base moves no money itself; the commission on
// it is rounded to the cent by lib/commission.ts.
import { mulDivRound } from './money.js';
import { taxRateMilli } from './storefront-tax.js';
import type { BasisPrecision, CommissionBasis } from '../schema/types.js';

export { COMMISSION_BASES, type BasisPrecision, type CommissionBasis } from '../schema/types.js';

/** The amounts behind one commission: the price, the tax and the store's fee taken out of it, and the base. */
export interface BasisAmounts {
  basis: CommissionBasis;
  precision: BasisPrecision;
  grossMicros: number;
  /** Null on the gross basis (nothing is taken out). */
  taxMicros: number | null;
  storeFeeMicros: number | null;
  /** What the campaign's commission percentage applies to. */
  baseMicros: number;
}

/** The app's store fee settings (apps.apple_small_business_program, apps.google_play_fee_tier_enrolled). */
export interface AppFeeSettings {
  /** Enrolled in Apple's App Store Small Business Program (decided per developer account; kept per app here). */
  appleSmallBusiness: boolean;
  /** Enrolled in Google Play's 15 % service-fee tier (one-time products: 15 % on the first $1M a year, else 30 %). */
  googleFeeTierEnrolled: boolean;
}

/** One paid period of a subscription (purchase to expiry), epoch milliseconds. */
export interface PaidPeriod {
  startMs: number;
  endMs: number;
}

export interface BasisInput {
  basis: CommissionBasis;
  grossMicros: number;
  /** The event's store: APP_STORE, PLAY_STORE, or another / unknown. */
  store: string | null;
  kind: 'subscription' | 'one_time';
  /** ISO alpha-2 or alpha-3; null when the event does not say. */
  storefront: string | null;
  /** The provider's fractions of the price (0-1), when the event carried both. */
  provider?: { storeFeeFraction: number; taxFraction: number } | null;
  fees: AppFeeSettings;
  /** Apple subscriptions: this subscription's earlier paid periods, and when this one starts. */
  earlierPaidPeriods?: readonly PaidPeriod[];
  periodStartMs?: number | null;
}

const DAY_MS = 86_400_000;
/** Apple: the 15 % rate after one year of paid service; a lapse longer than 60 days starts the count again. */
export const APPLE_PAID_DAYS_FOR_REDUCED_FEE = 365;
export const APPLE_LAPSE_RESET_DAYS = 60;

/**
 * Days of paid service a subscriber has accumulated before `atMs`, by Apple's rule: paid periods count their days;
 * a gap of more than 60 days between two paid periods (or before `atMs`) starts the count again.
 */
export function applePaidDaysBefore(periods: readonly PaidPeriod[], atMs: number): number {
  const sorted = periods.filter((p) => p.endMs > p.startMs && p.startMs < atMs).sort((a, b) => a.startMs - b.startMs);
  let days = 0;
  let lastEnd: number | undefined;
  for (const p of sorted) {
    if (lastEnd !== undefined && p.startMs - lastEnd > APPLE_LAPSE_RESET_DAYS * DAY_MS) days = 0;
    const from = lastEnd === undefined ? p.startMs : Math.max(p.startMs, lastEnd);
    const to = Math.min(p.endMs, atMs);
    if (to > from) days += (to - from) / DAY_MS;
    lastEnd = lastEnd === undefined ? p.endMs : Math.max(lastEnd, p.endMs);
  }
  if (lastEnd !== undefined && atMs - lastEnd > APPLE_LAPSE_RESET_DAYS * DAY_MS) days = 0;
  return days;
}

/**
 * The store's fee in percent for an estimated proceeds basis; 0 for a store we know no fee of. Apple: 15 % under
 * the Small Business Program, else 30 %, and 15 % for a subscription's paid days after its first year of paid
 * service. Google Play: 15 % for subscriptions; one-time products 15 % with the fee tier enrolment, else 30 %.
 */
export function estimatedStoreFeePercent(
  input: Pick<BasisInput, 'store' | 'kind' | 'fees' | 'earlierPaidPeriods' | 'periodStartMs'>,
): number {
  if (input.store === 'APP_STORE') {
    if (input.fees.appleSmallBusiness) return 15;
    const at = input.periodStartMs;
    const secondYear =
      input.kind === 'subscription' &&
      at !== null &&
      at !== undefined &&
      applePaidDaysBefore(input.earlierPaidPeriods ?? [], at) >= APPLE_PAID_DAYS_FOR_REDUCED_FEE;
    return secondYear ? 15 : 30;
  }
  if (input.store === 'PLAY_STORE') return input.kind === 'subscription' || input.fees.googleFeeTierEnrolled ? 15 : 30;
  return 0;
}

/** A 0-1 fraction as parts per billion, exactly enough for the provider's decimals. */
const ppb = (fraction: number): bigint => BigInt(Math.round(fraction * 1e9));
const BILLION = 1_000_000_000n;

/** The base of one commission and the amounts behind it. */
export function commissionBase(input: BasisInput): BasisAmounts {
  const gross = input.grossMicros;
  if (input.basis === 'gross')
    return { basis: 'gross', precision: 'exact', grossMicros: gross, taxMicros: null, storeFeeMicros: null, baseMicros: gross };
  if (input.provider) {
    // The provider's fractions are both of the price: tax and the store's fee come off it side by side.
    const taxMicros = mulDivRound(gross, ppb(input.provider.taxFraction), BILLION);
    const storeFeeMicros = mulDivRound(gross, ppb(input.provider.storeFeeFraction), BILLION);
    return {
      basis: 'proceeds',
      precision: 'exact',
      grossMicros: gross,
      taxMicros,
      storeFeeMicros,
      baseMicros: Math.max(0, gross - taxMicros - storeFeeMicros),
    };
  }
  // Estimated: the price includes the storefront's tax (none known: nothing taken out), the fee is on the rest.
  const rate = taxRateMilli(input.storefront) ?? 0n;
  const withoutTax = mulDivRound(gross, 100_000n, 100_000n + rate);
  const storeFeeMicros = mulDivRound(withoutTax, BigInt(estimatedStoreFeePercent(input)), 100n);
  return {
    basis: 'proceeds',
    precision: 'estimated',
    grossMicros: gross,
    taxMicros: gross - withoutTax,
    storeFeeMicros,
    baseMicros: withoutTax - storeFeeMicros,
  };
}

/**
 * The part of a commission's amounts a share of it stands for (a refund's reversal, a restored share, a partial
 * refund's remainder): each amount × partRevenue / wholeRevenue, on the commission's stored basis, never the
 * campaign's current one. A zero-revenue commission gives its amounts whole.
 */
export function basisShare(whole: BasisAmounts, partRevenueMicros: number): BasisAmounts {
  if (whole.grossMicros === 0 || partRevenueMicros === whole.grossMicros) return { ...whole, grossMicros: partRevenueMicros };
  const part = (micros: number) => mulDivRound(micros, BigInt(partRevenueMicros), BigInt(whole.grossMicros));
  return {
    ...whole,
    grossMicros: partRevenueMicros,
    taxMicros: whole.taxMicros === null ? null : part(whole.taxMicros),
    storeFeeMicros: whole.storeFeeMicros === null ? null : part(whole.storeFeeMicros),
    baseMicros: part(whole.baseMicros),
  };
}

/** The storefront an event names: Apple's transaction storefront, Google's regionCode, the provider's country_code. */
export function storefrontOfRaw(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, Record<string, unknown> | undefined>;
  const candidates = [
    r.app_store_transaction?.storefront,
    r.play_subscription?.regionCode,
    r.play_product?.regionCode,
    r.event?.country_code,
  ];
  const found = candidates.find((v): v is string => typeof v === 'string' && v.length > 0);
  return found ?? null;
}

/** A commission's stored basis as read back (columns of db/commissions.ts), or null when the row has none. */
export interface StoredBasis {
  basis: CommissionBasis;
  precision: BasisPrecision;
  gross: number | string | null;
  tax: number | string | null;
  fee: number | string | null;
  base: number | string | null;
}

const dollars = (micros: number | string | null) => `$${(Math.abs(Number(micros ?? 0)) / 1_000_000).toFixed(2)}`;

/**
 * The basis in words, the same on the dashboard, the creator portal and CSV exports: "gross" or "proceeds (estimated):
 * price $9.99 - tax $1.60 - store fee $2.52 = base $5.88". Amounts without sign (a reversal's are its commission's).
 */
export function describeBasis(b: StoredBasis): string {
  if (b.basis === 'gross') return 'gross';
  return (
    `proceeds (${b.precision}): price ${dollars(b.gross)} - tax ${dollars(b.tax)} - ` +
    `store fee ${dollars(b.fee)} = base ${dollars(b.base)}`
  );
}
