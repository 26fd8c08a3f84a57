// POST /api/webhooks/purchase: a purchase reported by the developer's own server, without a subscription provider.
// Auth is the app's server-side purchase API key (it_srv_..., never the public SDK key, or anyone could forge
// purchases). It enters the same conversion workflow as a one-time purchase (NON_RENEWING_PURCHASE keyed on the
// transaction id) and answers like the provider webhook: `{received, event_id, error?}`. The price is converted to
// USD like a store-direct one (lib/fx.ts: ECB rate of the latest published day not after the report's UTC date,
// since the body carries no purchase date; the rate, its date and source stored with the purchase); no rate for the
// currency: 503, nothing recorded.
import { usdPriceOf } from '../../clients/usd-price.js';
import { UnauthorizedError, UnavailableError, ValidationError } from '../../errors/http-errors.js';
import type { UsdPrice } from '../../lib/fx.js';
import { cleanupCode } from '../../lib/codes.js';
import { MAX_PRICE_USD, type PurchaseEvent } from '../../lib/purchase-event.js';
import { findUnstorable } from '../../lib/storable.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { submitPurchaseEvent } from './submit-event.js';

export const directPurchaseBody = {
  type: 'object',
  required: ['transaction_id', 'app_user_id', 'product_id', 'price', 'currency', 'svc_code', 'platform'],
  properties: {
    transaction_id: { type: 'string', minLength: 1, maxLength: 255 },
    app_user_id: { type: 'string', minLength: 1, maxLength: 255 },
    product_id: { type: 'string', minLength: 1, maxLength: 255 },
    price: { type: 'number', minimum: 0, maximum: MAX_PRICE_USD },
    currency: { type: 'string', pattern: '^[A-Za-z]{3}$' },
    svc_code: { type: 'string', maxLength: 64 },
    platform: { enum: ['ios', 'android'] },
  },
} as const;

interface DirectPurchase {
  transaction_id: string;
  app_user_id: string;
  product_id: string;
  price: number;
  currency: string;
  svc_code: string;
  platform: 'ios' | 'android';
}

export async function directPurchase(ctx: AppContext): Promise<void> {
  const p = ctx.state.principal;
  if (p?.kind !== 'purchase_api') throw new UnauthorizedError();
  const b = inputOf<DirectPurchase>(ctx);
  const unstorable = findUnstorable(b);
  if (unstorable) throw new ValidationError([unstorable]);
  const nowMs = Date.now();
  const usd = await priceOf(ctx, b, nowMs);
  ctx.body = await submitPurchaseEvent(ctx, p.appId, toEvent(b, nowMs, usd));
}

async function priceOf(ctx: AppContext, b: DirectPurchase, nowMs: number): Promise<UsdPrice> {
  const pricing = await usdPriceOf(ctx.deps.db, ctx.deps.config.FX_RATES_URL, b.price, b.currency, nowMs);
  if (pricing.ok) return pricing.usd;
  // The source away: soon; no rate for the day: once the next day's rates are published.
  throw new UnavailableError(`${pricing.detail}; nothing was recorded: deliver the purchase again later.`, pricing.transient ? 60 : 3600);
}

function toEvent(b: DirectPurchase, nowMs: number, usd: UsdPrice): PurchaseEvent {
  return {
    source: 'direct',
    providerEventId: null,
    type: 'NON_RENEWING_PURCHASE',
    appUserId: b.app_user_id,
    originalAppUserId: null,
    aliases: [],
    transferredFrom: [],
    transferredTo: [],
    productId: b.product_id,
    newProductId: null,
    periodType: 'NORMAL',
    purchasedAtMs: nowMs,
    expirationAtMs: null,
    // Fixed, so a retried report has the same idempotency key (app, type, transaction id, timestamp).
    eventTimestampMs: 0,
    environment: 'PRODUCTION',
    store: b.platform === 'ios' ? 'APP_STORE' : 'PLAY_STORE',
    transactionId: b.transaction_id,
    originalTransactionId: b.transaction_id,
    priceUsd: usd.priceUsd,
    priceInPurchasedCurrency: b.price,
    currency: b.currency.toUpperCase(),
    fx: usd.fx,
    takehomePercentage: null,
    cancelReason: null,
    isTrialConversion: null,
    referralCode: cleanupCode(b.svc_code) || null,
    subscriberAttributes: {},
    raw: b,
  };
}
