// The subscription provider's webhook event, normalised into the one event shape the conversion pipeline reads
// (store-direct and the direct purchase webhook produce the same shape). Pure: shared by the API, the activities
// and the workflow.
import { cleanupCode } from './codes.js';
import { SANDBOX_ENVIRONMENTS, type Environment } from '../schema/types.js';
import type { UsdRate } from './fx.js';
import type { RefundShare } from './refund-share.js';
import { providerOfferSignal, type OfferSignal } from './offer-code-match.js';

/** Event types that belong to a conversion and go through its workflow. */
const CONVERSION_EVENT_TYPES = [
  'INITIAL_PURCHASE',
  'RENEWAL',
  'NON_RENEWING_PURCHASE',
  'CANCELLATION',
  'UNCANCELLATION',
  'EXPIRATION',
  'PRODUCT_CHANGE',
  'BILLING_ISSUE',
  'REFUND',
  'REFUND_REVERSED',
] as const;
export type ConversionEventType = (typeof CONVERSION_EVENT_TYPES)[number];

export interface PurchaseEvent {
  source: 'subprovider' | 'store_direct' | 'direct' | 'test_integration';
  providerEventId: string | null;
  type: string;
  appUserId: string | null;
  originalAppUserId: string | null;
  aliases: string[];
  transferredFrom: string[];
  transferredTo: string[];
  productId: string | null;
  newProductId: string | null;
  periodType: string | null;
  purchasedAtMs: number | null;
  expirationAtMs: number | null;
  eventTimestampMs: number;
  environment: Environment;
  store: string | null;
  transactionId: string | null;
  originalTransactionId: string | null;
  /** USD, as the provider sends it: 0 for trials, negative for refunds. */
  priceUsd: number | null;
  priceInPurchasedCurrency: number | null;
  currency: string | null;
  /** The rate that made priceUsd from priceInPurchasedCurrency (stored with the purchase); absent for USD. */
  fx?: UsdRate | null;
  takehomePercentage: number | null;
  /**
   * The provider's fractions of the price (0-1): the store's cut (RevenueCat `commission_percentage`, never the
   * campaign's 0-100 field of that name) and the tax (`tax_percentage`). Exact proceeds need both
   * (lib/commission-basis.ts). Absent on every event made before they were read (and so from recorded histories).
   */
  storeFeeFraction?: number | null;
  taxFraction?: number | null;
  cancelReason: string | null;
  isTrialConversion: boolean | null;
  /** From the subscriber attribute `svc_code`, cleaned up; null when absent. */
  referralCode: string | null;
  subscriberAttributes: Record<string, { value: string; updated_at_ms?: number }>;
  raw: unknown;
  /**
   * An App Store family-shared transaction (inAppOwnershipType FAMILY_SHARED): recorded, never earns. Absent from
   * every event made before it existed (and so from recorded histories).
   */
  familyShared?: boolean;
  /**
   * A REFUND of part of its transaction: the store's cumulative share refunded (lib/refund-share.ts). Absent (and
   * on every event made before it existed): the whole transaction.
   */
  refundShare?: RefundShare;
  /**
   * A creator's store offer code the purchase redeemed (lib/offer-code-match.ts): the App Store offer's reference
   * name, the Play line items' offers, or the provider's `offer_code`. Absent without one (and on every event made
   * before it existed, so recorded histories are unchanged).
   */
  offer?: OfferSignal;
}

function normalizeEnvironment(value: unknown): Environment {
  const v = typeof value === 'string' ? value.toUpperCase() : '';
  return (SANDBOX_ENVIRONMENTS as readonly string[]).includes(v) ? (v as Environment) : 'PRODUCTION';
}

/** Largest absolute USD price accepted: anything beyond is no purchase, and it stays far inside safe micro-USD integers. */
export const MAX_PRICE_USD = 1_000_000_000;
/** Latest instant a JavaScript Date (and so a stored timestamp) can hold. */
const MAX_EPOCH_MS = 8.64e15;
/** Conversion keys become workflow ids (Temporal refuses ids past 1,000 bytes). */
const MAX_TRANSACTION_ID = 512;

const epochMs = (integer: boolean) => ({ type: [integer ? 'integer' : 'number', 'null'], minimum: 0, maximum: MAX_EPOCH_MS });
const transactionId = { type: ['string', 'null'], maxLength: MAX_TRANSACTION_ID };

/**
 * JSON Schema of the provider's webhook body: what we read, loosely typed where the provider is loose. Values the
 * event log could never store (a price past safe micro-USD, a fractional or out-of-range timestamp, a currency that
 * is not three letters) are refused here with 422: accepted, they would fail their conversion's activity on every
 * retry and hold up every later event of that conversion.
 */
export const subproviderWebhookBody = {
  type: 'object',
  required: ['event'],
  properties: {
    api_version: { type: 'string' },
    event: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', minLength: 1, maxLength: 64 },
        id: { type: ['string', 'null'], maxLength: 128 },
        app_user_id: { type: ['string', 'null'], maxLength: 512 },
        original_app_user_id: { type: ['string', 'null'], maxLength: 512 },
        aliases: { type: ['array', 'null'], items: { type: 'string' } },
        transferred_from: { type: ['array', 'null'], items: { type: 'string' } },
        transferred_to: { type: ['array', 'null'], items: { type: 'string' } },
        product_id: { type: ['string', 'null'] },
        new_product_id: { type: ['string', 'null'] },
        period_type: { type: ['string', 'null'] },
        purchased_at_ms: epochMs(false),
        expiration_at_ms: epochMs(false),
        event_timestamp_ms: epochMs(true),
        environment: { type: ['string', 'null'] },
        store: { type: ['string', 'null'] },
        transaction_id: transactionId,
        original_transaction_id: transactionId,
        price: { type: ['number', 'null'], minimum: -MAX_PRICE_USD, maximum: MAX_PRICE_USD },
        price_in_purchased_currency: { type: ['number', 'null'] },
        currency: { type: ['string', 'null'], pattern: '^([A-Za-z]{3})?$' },
        takehome_percentage: { type: ['number', 'null'], minimum: 0, maximum: 1 },
        commission_percentage: { type: ['number', 'null'], minimum: 0, maximum: 1 },
        tax_percentage: { type: ['number', 'null'], minimum: 0, maximum: 1 },
        cancel_reason: { type: ['string', 'null'] },
        is_trial_conversion: { type: ['boolean', 'null'] },
        subscriber_attributes: { type: ['object', 'null'] },
        offer_code: { type: ['string', 'null'], maxLength: 256 },
      },
    },
  },
} as const;

type Loose = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function normalizeSubproviderEvent(body: { event: Loose }, receivedAtMs: number): PurchaseEvent {
  const e = body.event;
  const attributes = (
    e.subscriber_attributes && typeof e.subscriber_attributes === 'object' ? e.subscriber_attributes : {}
  ) as PurchaseEvent['subscriberAttributes'];
  const code = str(attributes.svc_code?.value);
  const store = str(e.store)?.toUpperCase() ?? null;
  const offer = providerOfferSignal(str(e.offer_code), store);
  return {
    source: 'subprovider',
    providerEventId: str(e.id),
    type: String(e.type).toUpperCase(),
    appUserId: str(e.app_user_id),
    originalAppUserId: str(e.original_app_user_id),
    aliases: strs(e.aliases),
    transferredFrom: strs(e.transferred_from),
    transferredTo: strs(e.transferred_to),
    productId: str(e.product_id),
    newProductId: str(e.new_product_id),
    periodType: str(e.period_type)?.toUpperCase() ?? null,
    purchasedAtMs: num(e.purchased_at_ms),
    expirationAtMs: num(e.expiration_at_ms),
    eventTimestampMs: num(e.event_timestamp_ms) ?? receivedAtMs,
    environment: normalizeEnvironment(e.environment),
    store,
    transactionId: str(e.transaction_id),
    originalTransactionId: str(e.original_transaction_id),
    priceUsd: num(e.price),
    priceInPurchasedCurrency: num(e.price_in_purchased_currency),
    currency: str(e.currency)?.toUpperCase() ?? null,
    takehomePercentage: num(e.takehome_percentage),
    storeFeeFraction: num(e.commission_percentage),
    taxFraction: num(e.tax_percentage),
    cancelReason: str(e.cancel_reason)?.toUpperCase() ?? null,
    isTrialConversion: typeof e.is_trial_conversion === 'boolean' ? e.is_trial_conversion : null,
    referralCode: code ? cleanupCode(code) || null : null,
    subscriberAttributes: attributes,
    raw: body,
    ...(offer ? { offer } : {}),
  };
}

/** The spec's idempotency key: app, event type, transaction id, event timestamp. */
export function idempotencyKey(appId: string, e: Pick<PurchaseEvent, 'type' | 'transactionId' | 'eventTimestampMs'>): string {
  return `${appId}:${e.type}:${e.transactionId ?? ''}:${e.eventTimestampMs}`;
}

/**
 * Which conversion an event belongs to (spec "Conversion: keyed on store identity"): a subscription's original
 * transaction id; each one-time purchase its own transaction id. Undefined when the event carries neither.
 */
export function conversionKeyOf(e: Pick<PurchaseEvent, 'type' | 'transactionId' | 'originalTransactionId'>): string | undefined {
  if (e.type === 'NON_RENEWING_PURCHASE') return e.transactionId ?? e.originalTransactionId ?? undefined;
  return e.originalTransactionId ?? e.transactionId ?? undefined;
}

/** What the API does with an event before any conversion exists. */
export type Routing = 'connect' | 'transfer' | 'ignore' | 'conversion';

export function routeEvent(e: Pick<PurchaseEvent, 'type' | 'store'>): Routing {
  if (e.type === 'TEST') return 'connect';
  if (e.type === 'TRANSFER') return 'transfer';
  // Promotional grants (including our own free-access mirror) are not purchases.
  if (e.store === 'PROMOTIONAL') return 'ignore';
  return (CONVERSION_EVENT_TYPES as readonly string[]).includes(e.type) ? 'conversion' : 'ignore';
}

/** A refund arrives as REFUND, or (real provider) as CANCELLATION with cancel_reason CUSTOMER_SUPPORT. */
export function isRefund(e: Pick<PurchaseEvent, 'type' | 'cancelReason'>): boolean {
  return e.type === 'REFUND' || (e.type === 'CANCELLATION' && e.cancelReason === 'CUSTOMER_SUPPORT');
}
