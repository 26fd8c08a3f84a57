// The USD price of a purchase, one rule for both ways a priced purchase arrives (the direct purchase webhook and the
// store-direct workflow's FX step): lib/fx.ts at the purchase date, rates cached in PostgreSQL (db/fx-rates.ts),
// the ECB files at FX_RATES_URL behind them. A refusal says why; each caller answers it in its own terms.
import type { Knex } from 'knex';
import { fetchEcbFile, FxSourceUnavailable, historyUrlOf } from './ecb-rates.js';
import { fxRatePorts } from '../db/fx-rates.js';
import { priceInUsd, utcDay, type UsdPrice } from '../lib/fx.js';

export type UsdPricing =
  | { ok: true; usd: UsdPrice }
  /** `transient`: the source is away (try again soon); otherwise no rate exists for the currency and day. */
  | { ok: false; transient: boolean; detail: string; cause?: Error };

export async function usdPriceOf(db: Knex, ratesUrl: string, price: number, currency: string, purchasedAtMs: number): Promise<UsdPricing> {
  const ports = fxRatePorts(db, (u) => fetchEcbFile(u), { recent: ratesUrl, history: historyUrlOf(ratesUrl) });
  try {
    const usd = await priceInUsd(ports, price, currency, purchasedAtMs, Date.now());
    if (usd) return { ok: true, usd };
  } catch (err) {
    if (err instanceof FxSourceUnavailable)
      return { ok: false, transient: true, detail: 'Exchange rates are unavailable right now', cause: err };
    throw err;
  }
  return { ok: false, transient: false, detail: `No exchange rate for ${currency.toUpperCase()} on or before ${utcDay(purchasedAtMs)}` };
}
