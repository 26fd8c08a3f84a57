// The FX step of a store-direct purchase: each priced event's amount in USD at the rate of its purchase date
// (lib/fx.ts rules, cached per day and currency in PostgreSQL, ECB XML at FX_RATES_URL). No rate: the workflow
// ends with FxRateUnavailable (503, nothing recorded; a later report runs again). The source unreachable: retried
// a few times, then the same 503.
import { ApplicationFailure } from '@temporalio/activity';
import { fetchEcbFile, FxSourceUnavailable, historyUrlOf } from '../../clients/ecb-rates.js';
import { fxRatePorts } from '../../db/fx-rates.js';
import { priceInUsd, utcDay } from '../../lib/fx.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import type { StoreDirectContext } from './context.js';

export function fxActivities(ctx: StoreDirectContext) {
  return {
    async priceStorePurchaseInUsd({ events, receivedAtMs }: { events: PurchaseEvent[]; receivedAtMs: number }): Promise<PurchaseEvent[]> {
      const url = ctx.config.FX_RATES_URL;
      const ports = fxRatePorts(ctx.db, (u) => fetchEcbFile(u), { recent: url, history: historyUrlOf(url) });
      const priced: PurchaseEvent[] = [];
      for (const e of events) {
        if (e.priceInPurchasedCurrency === null || e.currency === null) {
          priced.push(e);
          continue;
        }
        const purchasedAt = e.purchasedAtMs ?? receivedAtMs;
        let usd;
        try {
          usd = await priceInUsd(ports, e.priceInPurchasedCurrency, e.currency, purchasedAt, Date.now());
        } catch (err) {
          if (err instanceof FxSourceUnavailable) {
            throw ApplicationFailure.retryable(`Exchange rates are unavailable right now (${err.message}); nothing was recorded: report the purchase again later.`, 'FxRateUnavailable', { detail: 'Exchange rates are unavailable right now; nothing was recorded: report the purchase again later.' });
          }
          throw err;
        }
        if (!usd) {
          const detail = `No exchange rate for ${e.currency} on or before ${utcDay(purchasedAt)}; nothing was recorded: report the purchase again later.`;
          throw ApplicationFailure.nonRetryable(detail, 'FxRateUnavailable', { detail });
        }
        priced.push({ ...e, priceUsd: usd.priceUsd, fx: usd.fx });
      }
      return priced;
    },
  };
}
