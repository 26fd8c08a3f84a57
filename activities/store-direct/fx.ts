// The FX step of a store-direct purchase: each priced event's amount in USD at the rate of its purchase date
// (lib/fx.ts rules, cached per day and currency in PostgreSQL, ECB XML at FX_RATES_URL). No rate: the workflow
// ends with FxRateUnavailable (503, nothing recorded; a later report runs again). The source unreachable: retried
// a few times, then the same 503.
import { ApplicationFailure } from '@temporalio/activity';
import { usdPriceOf } from '../../clients/usd-price.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import type { StoreDirectContext } from './context.js';

export function fxActivities(ctx: StoreDirectContext) {
  return {
    async priceStorePurchaseInUsd({ events, receivedAtMs }: { events: PurchaseEvent[]; receivedAtMs: number }): Promise<PurchaseEvent[]> {
      const priced: PurchaseEvent[] = [];
      for (const e of events) {
        if (e.priceInPurchasedCurrency === null || e.currency === null) {
          priced.push(e);
          continue;
        }
        const pricing = await usdPriceOf(
          ctx.db,
          ctx.config.FX_RATES_URL,
          e.priceInPurchasedCurrency,
          e.currency,
          e.purchasedAtMs ?? receivedAtMs,
        );
        if (!pricing.ok) {
          const detail = `${pricing.detail}; nothing was recorded: report the purchase again later.`;
          const message = pricing.cause
            ? `${pricing.detail} (${pricing.cause.message}); nothing was recorded: report the purchase again later.`
            : detail;
          throw pricing.transient
            ? ApplicationFailure.retryable(message, 'FxRateUnavailable', { detail })
            : ApplicationFailure.nonRetryable(message, 'FxRateUnavailable', { detail });
        }
        priced.push({ ...e, priceUsd: pricing.usd.priceUsd, fx: pricing.usd.fx });
      }
      return priced;
    },
  };
}
