// Exchange rates, pure rules (the ECB client is clients/ecb-rates.ts, the cache db/fx-rates.ts, the order of look-ups
// resolveUsdRate below). The ECB publishes euro reference rates once per TARGET business day (about 16:00 CET):
// "1 EUR = r units of C". A price in C becomes USD at
//   usd_per_unit(C) = r(USD) / r(C)          (EUR: r(USD); rounded half up to FX_RATE_DECIMALS places, stored)
//   revenue micro-USD = price x usd_per_unit  (exact decimal product, rounded once, half away from zero)
// so every USD amount can be re-derived from the stored rate. A purchase uses the rate of the latest published day
// not after its UTC calendar date (a Saturday purchase uses Friday's rate). USD needs no rate.

const FX_RATE_DECIMALS = 10;
/** A converted price past 1e9 USD is no purchase (lib/purchase-event.ts MAX_PRICE_USD, in micro-USD). */
const MAX_USD_MICROS = 1_000_000_000n * 1_000_000n;
const DAY_MS = 86_400_000;

/** One day of a published file: units of each currency per EUR (decimal text). */
export interface PublishedDay {
  date: string;
  rates: Record<string, string>;
}

/** A USD rate of one currency, as stored with the purchase. */
export interface UsdRate {
  currency: string;
  usdPerUnit: string;
  rateDate: string;
  source: string;
}

/** What a conversion stores: the USD figure and the rate that made it (null for USD). */
export interface UsdPrice {
  priceUsd: number;
  fx: UsdRate | null;
}

interface Scaled {
  value: bigint;
  scale: number;
}

function scaled(decimal: string): Scaled {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!m) throw new RangeError(`not a non-negative decimal: ${decimal}`);
  const frac = m[2] ?? '';
  return { value: BigInt(m[1]! + frac), scale: frac.length };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** n / d rounded half up (both positive). */
function divRound(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

/** Decimal text of a non-negative number without exponent notation (prices arrive as JSON numbers). */
export function decimalText(amount: number | string): string {
  if (typeof amount === 'string') return amount.trim();
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`not a price: ${amount}`);
  return amount.toFixed(9).replace(/\.?0+$/, '') || '0';
}

/** usd_per_unit of a currency from the two ECB rates (units per EUR), FX_RATE_DECIMALS places, half up. */
export function usdPerUnit(usdPerEur: string, unitsPerEur: string): string {
  const usd = scaled(usdPerEur);
  const units = scaled(unitsPerEur);
  if (units.value === 0n) throw new RangeError('a rate of zero');
  // (usd / 10^su) / (units / 10^sc) * 10^D = usd * 10^(sc + D) / (units * 10^su)
  const q = divRound(usd.value * pow10(units.scale + FX_RATE_DECIMALS), units.value * pow10(usd.scale));
  return formatScaled(q, FX_RATE_DECIMALS);
}

function formatScaled(v: bigint, scale: number): string {
  const text = v.toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const frac = text.slice(text.length - scale).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** price x usd_per_unit in integer micro-USD, rounded once (half away from zero; both are non-negative). */
export function toUsdMicros(price: number | string, rate: string): number {
  const p = scaled(decimalText(price));
  const r = scaled(rate);
  const micros = divRound(p.value * r.value * pow10(6), pow10(p.scale + r.scale));
  if (micros > MAX_USD_MICROS) throw new RangeError('price out of range');
  return Number(micros);
}

/** The purchase's UTC calendar day, 'YYYY-MM-DD'. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
}

/** Days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The cache of rates and the source behind it, as resolveUsdRate needs them (db/fx-rates.ts and
 * clients/ecb-rates.ts implement them; tests may give their own).
 */
export interface FxRatePorts {
  /**
   * The rate of the latest published day not after `day`, when the cache can prove it: a file read that spans
   * `day` (or was read after the day ended, or moments ago) holds every day published up to it. 'none' when such
   * a read holds no rate of the currency from its first day to `day`; 'unknown' when no read spans `day`.
   */
  cached(currency: string, day: string): Promise<UsdRate | 'unknown' | 'none'>;
  /** Reads one file into the cache: the configured (recent) file, or the full history. */
  load(which: 'recent' | 'history'): Promise<void>;
}

/** How far back the recent file (the 90-day one by default) is trusted to reach; older purchases read the history. */
const RECENT_FILE_DAYS = 85;

/**
 * The USD rate of `currency` for a purchase on `day`: from the cache, else after reading the recent file (purchases
 * of the last RECENT_FILE_DAYS days), else after reading the full history. undefined: no rate exists (an unknown
 * currency, a day before its series starts): the caller answers 503 and records nothing.
 */
async function resolveUsdRate(ports: FxRatePorts, currency: string, day: string, today: string): Promise<UsdRate | undefined> {
  const first = await ports.cached(currency, day);
  if (typeof first === 'object') return first;
  if (first === 'none') return undefined;
  const order: ('recent' | 'history')[] = daysBetween(day, today) <= RECENT_FILE_DAYS ? ['recent', 'history'] : ['history'];
  for (const which of order) {
    await ports.load(which);
    const found = await ports.cached(currency, day);
    if (typeof found === 'object') return found;
    if (found === 'none') return undefined;
  }
  return undefined;
}

/** A price in `currency` as USD (USD itself and a price of 0 need no rate). undefined: no rate for it. */
export async function priceInUsd(
  ports: FxRatePorts,
  price: number,
  currency: string,
  purchasedAtMs: number,
  nowMs: number,
): Promise<UsdPrice | undefined> {
  const c = currency.toUpperCase();
  if (c === 'USD' || price === 0) return { priceUsd: price, fx: null };
  const rate = await resolveUsdRate(ports, c, utcDay(purchasedAtMs), utcDay(nowMs));
  if (!rate) return undefined;
  return { priceUsd: toUsdMicros(price, rate.usdPerUnit) / 1_000_000, fx: rate };
}
