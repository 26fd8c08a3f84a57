// Money is integer micro-USD (1 USD = 1,000,000). One rounding rule everywhere: half away from zero, applied
// once, at the point an amount is created (mulDivRound). Every amount that can move money (commission, platform fee,
// bonus award, refund share, clawback, payout) is created in whole cents (a multiple of MICROS_PER_CENT), because money
// leaves in cents (a Stripe transfer's smallest USD unit): docs/wallet-and-payouts.md "Cents".

const MICROS_PER_USD = 1_000_000;
/** One US cent in micro-USD: every amount that moves money is a multiple of it. */
export const MICROS_PER_CENT = 10_000;

/**
 * The one rounding rule: value × numerator / denominator rounded to a multiple of `unitMicros` (1: a micro,
 * MICROS_PER_CENT: a cent), half away from zero, in one step and exactly (bigint) for any safe integers.
 */
export function mulDivRound(value: number, numerator: bigint, denominator: bigint, unitMicros = 1): number {
  const product = BigInt(value) * numerator;
  const sign = product < 0n ? -1n : 1n;
  const abs = product * sign;
  const d = denominator * BigInt(unitMicros);
  const q = (abs * 2n + d) / (2n * d);
  return Number(q * sign * BigInt(unitMicros));
}

/**
 * Micros as whole cents for a provider that moves money in cents (a Stripe `amount`): exact, never rounded. An amount
 * with a fraction of a cent cannot come from our rows (they are created in cents) and is refused loudly.
 */
export function exactCents(micros: number): number {
  if (!isWholeCents(micros)) throw new RangeError(`${micros} micro-USD is not a whole number of cents`);
  return micros / MICROS_PER_CENT;
}

/** Whether micros are whole cents. */
export function isWholeCents(micros: number): boolean {
  return Number.isSafeInteger(micros) && micros % MICROS_PER_CENT === 0;
}

/** Converts a decimal amount (number or decimal string) to integer micro-units without binary float error. */
export function toMicros(amount: number | string): number {
  const text = typeof amount === 'number' ? amount.toFixed(9) : amount.trim();
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal amount: ${text}`);
  const [, sign, whole = '0', frac = ''] = match;
  const padded = (frac + '0000000').slice(0, 7);
  let micros = Number(whole) * MICROS_PER_USD + Number(padded.slice(0, 6));
  if (Number(padded[6]) >= 5) micros += 1;
  if (!Number.isSafeInteger(micros)) throw new RangeError(`amount out of range: ${text}`);
  return sign ? -micros : micros;
}

export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}

export interface WalletAmounts {
  balanceMicros: number;
  reservedMicros: number;
  safeAvailableMicros: number;
}

/**
 * How every surface shows a wallet: the spec's names as USD decimal numbers (`balance`, `reserved`,
 * `safe_available`), exact integer micro-USD beside them, and the currency.
 */
export function walletView(w: WalletAmounts) {
  return {
    currency: 'USD',
    balance: microsToUsd(w.balanceMicros),
    reserved: microsToUsd(w.reservedMicros),
    safe_available: microsToUsd(w.safeAvailableMicros),
    balance_micros: w.balanceMicros,
    reserved_micros: w.reservedMicros,
    safe_available_micros: w.safeAvailableMicros,
  };
}

/** For people: "$12.50 USD". */
export function formatUsd(micros: number): string {
  return `$${microsToUsd(micros).toFixed(2)} USD`;
}

/** A USD float summed in SQL, back at micro precision without float noise (0.30000000000000004 -> 0.3). */
export function toMicroPrecision(usd: number): number {
  return Math.round(usd * MICROS_PER_USD) / MICROS_PER_USD;
}

/** Micros rounded to whole cents by the one rule (mulDivRound): half away from zero, what formatUsd shows. */
export function toCentsMicros(micros: number): number {
  return mulDivRound(micros, 1n, 1n, MICROS_PER_CENT);
}

/** Money in a CSV cell: USD with exactly two decimals ("10.00", "-3.75"), the one format of every CSV export. */
export function csvUsd(micros: number): string {
  const cents = toCentsMicros(micros) / MICROS_PER_CENT;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The change a statement row shows: the rounded running total after it minus the rounded total before it, so a
 * column of shown changes always adds up to the shown total: raw 3.2951 + 19.7951 = 23.0902 shows 3.30 + 19.79 =
 * 23.09, where rounding each change alone would show 3.30 + 19.80 beside a total of 23.09.
 */
export function shownDeltaMicros(afterMicros: number, deltaMicros: number): number {
  return toCentsMicros(afterMicros) - toCentsMicros(afterMicros - deltaMicros);
}
