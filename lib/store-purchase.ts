// Store-direct purchases (spec "POST /sdk/purchase"), pure rules: the proof's identity and hash, and the store's
// verified answer normalised into the conversion pipeline's events (lib/purchase-event.ts), prices still in the
// store's currency (the FX step converts them). Decisions where the spec is silent are written beside each rule.
import { createHash } from 'node:crypto';
import type { PurchaseEvent } from './purchase-event.js';
import { appleRefundShare } from './refund-share.js';
import { appleOfferSignal, playOfferSignal } from './offer-code-match.js';
import { STORE_VERIFIER } from './validation-providers.js';
import type { StorePlatform } from '../schema/types.js';

// ---- the gate -------------------------------------------------------------------------------------------------

/** What the gate reads of the app (db/store-credentials.ts findStoreDirectSetup). */
export interface StoreDirectSetupView {
  provider: string | null;
  credentialPresent: boolean;
  bundleId: string | null;
  packageName: string | null;
}

/**
 * The store-direct gate, one rule for the API's cheap refusal and the workflow's verification: the platform is
 * switched to its store's verifier and has its credential and store id (iOS: and the server trusts Apple's roots).
 * The answer is the store id to verify against, or whether the refusal is "not switched" or "switched, but missing
 * a credential" (worded for people in errors/store-direct-refusals.ts).
 */
export function storeDirectGate(
  platform: StorePlatform,
  setup: StoreDirectSetupView | undefined,
  appleRootsTrusted: boolean,
): { ok: true; storeId: string } | { ok: false; switched: boolean } {
  if (!setup || setup.provider !== STORE_VERIFIER[platform]) return { ok: false, switched: false };
  const storeId = platform === 'ios' ? setup.bundleId : setup.packageName;
  if (!setup.credentialPresent || !storeId || (platform === 'ios' && !appleRootsTrusted)) return { ok: false, switched: true };
  return { ok: true, storeId };
}

// ---- the proof -------------------------------------------------------------------------------------------------

/**
 * proof_hash = SHA-256 of the platform and the store's identity of the transaction, never of the proof's bytes (a
 * JWS is signed anew on every fetch). iOS: the transaction id. Android subscription: the purchase token. Android
 * one-time product: the request carries no order id (Google answers it), so the identity is the product id and the
 * purchase token Google keys the purchase by: one token is exactly one order.
 */
export function proofHash(platform: StorePlatform, identity: string): string {
  return createHash('sha256').update(`${platform}\n${identity}`).digest('hex');
}

export function androidProofIdentity(purchaseToken: string, productId: string | undefined): string {
  return productId ? `product:${productId}\n${purchaseToken}` : `subscription:${purchaseToken}`;
}

/** The payload a JWS claims, unverified (only to name the transaction or pick a verifier); undefined if unreadable. */
export function claimedPayload(jws: string): Record<string, unknown> | undefined {
  const parts = jws.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The transaction id a signed transaction claims (verified later, in the workflow). */
export function claimedTransactionId(jws: string): string | undefined {
  const id = claimedPayload(jws)?.transactionId;
  return typeof id === 'string' && id.length > 0 && id.length <= 512 ? id : undefined;
}

// ---- normalised events -----------------------------------------------------------------------------------------

/** What the app reported beside the proof. */
export interface ReportContext {
  appUserId: string | null;
  referralCode: string | null;
}

/** A store-direct event with every field the report does not set at its default (lib/play-voided.ts builds refunds with it). */
export function storeDirectEvent(
  fields: Partial<PurchaseEvent> &
    Pick<PurchaseEvent, 'type' | 'eventTimestampMs' | 'environment' | 'transactionId' | 'originalTransactionId'>,
  ctx: ReportContext,
): PurchaseEvent {
  return {
    source: 'store_direct',
    providerEventId: null,
    appUserId: ctx.appUserId,
    originalAppUserId: null,
    aliases: [],
    transferredFrom: [],
    transferredTo: [],
    productId: null,
    newProductId: null,
    periodType: null,
    purchasedAtMs: null,
    expirationAtMs: null,
    store: null,
    priceUsd: null,
    priceInPurchasedCurrency: null,
    currency: null,
    takehomePercentage: null,
    cancelReason: null,
    isTrialConversion: null,
    referralCode: ctx.referralCode,
    subscriberAttributes: {},
    raw: {},
    ...fields,
  };
}

/** A decoded App Store transaction (JWSTransactionDecodedPayload), the fields we read. */
export interface AppleTransaction {
  transactionId?: string;
  originalTransactionId?: string;
  productId?: string;
  type?: string;
  environment?: string;
  purchaseDate?: number;
  expiresDate?: number;
  signedDate?: number;
  price?: number;
  currency?: string;
  offerType?: number;
  /** With offerType 3 (an offer code): the offer's reference name (lib/offer-code-match.ts). */
  offerIdentifier?: string;
  offerDiscountType?: string;
  revocationDate?: number;
  revocationReason?: number;
  transactionReason?: string;
  inAppOwnershipType?: string;
  appAccountToken?: string;
  revocationType?: string;
  revocationPercentage?: number;
}

/**
 * An App Store transaction as events. Production is PRODUCTION; Sandbox, Xcode and LocalTesting are SANDBOX (the
 * last two are not signed by the App Store and never move money). An auto-renewable subscription is
 * INITIAL_PURCHASE when the transaction is the original one, else RENEWAL; consumable, non-consumable and
 * non-renewing products are NON_RENEWING_PURCHASE. The price is in milliunits of `currency`. The event timestamp
 * (part of the idempotency key) is the purchase date, so a re-signed copy of the same transaction is the same event.
 * A transaction with a revocationDate is refunded: the purchase (once) and its REFUND (at the revocation date), of
 * the share `revocationPercentage` names when the refund is partial (lib/refund-share.ts appleRefundShare).
 * A family-shared transaction (a family member's access to a purchase someone else made) is recorded, never earns.
 */
export function appleTransactionEvents(tx: AppleTransaction, ctx: ReportContext): PurchaseEvent[] {
  const transactionId = tx.transactionId!;
  const original = tx.originalTransactionId ?? transactionId;
  const environment = tx.environment === 'Production' ? 'PRODUCTION' : 'SANDBOX';
  const subscription = tx.type === 'Auto-Renewable Subscription';
  const purchasedAtMs = tx.purchaseDate ?? tx.signedDate ?? 0;
  const trial = tx.offerDiscountType === 'FREE_TRIAL';
  const price = trial ? 0 : tx.price === undefined ? null : tx.price / 1000;
  const offer = appleOfferSignal(tx);
  const purchase = storeDirectEvent(
    {
      type: subscription ? (transactionId === original ? 'INITIAL_PURCHASE' : 'RENEWAL') : 'NON_RENEWING_PURCHASE',
      transactionId,
      originalTransactionId: subscription ? original : transactionId,
      eventTimestampMs: purchasedAtMs,
      purchasedAtMs,
      expirationAtMs: tx.expiresDate ?? null,
      environment,
      store: 'APP_STORE',
      productId: tx.productId ?? null,
      periodType: trial ? 'TRIAL' : tx.offerType === 1 ? 'INTRO' : 'NORMAL',
      priceInPurchasedCurrency: price,
      currency: price === null ? null : (tx.currency ?? 'USD').toUpperCase(),
      raw: { app_store_transaction: tx },
      ...(tx.inAppOwnershipType === 'FAMILY_SHARED' ? { familyShared: true } : {}),
      ...(offer ? { offer } : {}),
    },
    ctx,
  );
  if (tx.revocationDate === undefined) return [purchase];
  const share = appleRefundShare(tx);
  return [
    purchase,
    storeDirectEvent(
      {
        type: 'REFUND',
        transactionId,
        originalTransactionId: purchase.originalTransactionId,
        eventTimestampMs: tx.revocationDate,
        purchasedAtMs,
        environment,
        store: 'APP_STORE',
        productId: tx.productId ?? null,
        cancelReason: tx.revocationReason === 1 ? 'DEVELOPER_ISSUE' : 'CUSTOMER_SUPPORT',
        raw: { app_store_transaction: tx },
        ...(share ? { refundShare: share } : {}),
      },
      ctx,
    ),
  ];
}

/** Google's answer for a subscription purchase token (SubscriptionPurchaseV2), the fields we read. */
export interface GoogleSubscription {
  subscriptionState?: string | null;
  startTime?: string | null;
  testPurchase?: object | null;
  lineItems?:
    | {
        productId?: string | null;
        expiryTime?: string | null;
        latestSuccessfulOrderId?: string | null;
        autoRenewingPlan?: {
          recurringPrice?: { currencyCode?: string | null; units?: string | null; nanos?: number | null } | null;
        } | null;
        offerPhase?: { freeTrial?: object | null } | null;
        offerDetails?: { offerId?: string | null; basePlanId?: string | null; offerTags?: (string | null)[] | null } | null;
      }[]
    | null;
}

/**
 * A refusal carries the workflow's failure type (two of workflows/store-purchase-messages.ts STORE_PURCHASE_FAILURES,
 * spelled here so lib/ imports nothing from workflows/; the activity's failure() checks them against that list).
 */
export type Normalised =
  | { ok: true; events: PurchaseEvent[] }
  | {
      ok: false;
      type: 'StorePurchaseNotPurchased' | 'StorePurchaseInvalid';
      detail: string;
      fields?: string[];
    };

const NOT_PAID_STATES = new Set([
  'SUBSCRIPTION_STATE_PENDING',
  'SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED',
  'SUBSCRIPTION_STATE_UNSPECIFIED',
]);

/**
 * A Google Play subscription as its latest paid period: the conversion key is the purchase token (the original
 * transaction), the transaction is the latest successful order id; a renewal's order id ends in `..N`. A test
 * purchase is SANDBOX. The price is the plan's recurring price (a free-trial phase is 0). The idempotency
 * timestamp is the subscription's start time (the store's purchase date; the order id tells periods apart); the FX
 * date of a renewal is the day it is verified, as Google reports no renewal date. A pending purchase is 409.
 */
export function googleSubscriptionEvents(
  sub: GoogleSubscription,
  token: string,
  nowMs: number,
  ctx: ReportContext & { price?: number; currency?: string },
): Normalised {
  if (NOT_PAID_STATES.has(sub.subscriptionState ?? 'SUBSCRIPTION_STATE_UNSPECIFIED')) {
    return {
      ok: false,
      type: 'StorePurchaseNotPurchased',
      detail:
        `The subscription is not purchased (Google Play ` +
        `state ${sub.subscriptionState ?? 'unknown'}): report it once the payment completes.`,
    };
  }
  const item = sub.lineItems?.[0] ?? {};
  const orderId = item.latestSuccessfulOrderId ?? token;
  const renewal = /\.\.\d+$/.test(orderId);
  const startMs = sub.startTime ? Date.parse(sub.startTime) : nowMs;
  const trial = Boolean(item.offerPhase?.freeTrial);
  const recurring = item.autoRenewingPlan?.recurringPrice;
  // Every line item's offer is read (a creator's offer may sit on any of them), the first one's price as before.
  const offer = playOfferSignal(sub.lineItems);
  let price: number | null = null;
  let currency: string | null = null;
  if (trial) price = 0;
  else if (recurring?.currencyCode) {
    price = Number(recurring.units ?? '0') + (recurring.nanos ?? 0) / 1e9;
    currency = recurring.currencyCode.toUpperCase();
  } else if (ctx.price !== undefined && ctx.currency) {
    price = ctx.price;
    currency = ctx.currency.toUpperCase();
  } else {
    return {
      ok: false,
      type: 'StorePurchaseInvalid',
      detail: 'Google reports no recurring price for this subscription: send price and currency.',
      fields: ['price', 'currency'],
    };
  }
  return {
    ok: true,
    events: [
      storeDirectEvent(
        {
          type: renewal ? 'RENEWAL' : 'INITIAL_PURCHASE',
          transactionId: orderId,
          originalTransactionId: token,
          eventTimestampMs: startMs,
          purchasedAtMs: renewal ? nowMs : startMs,
          expirationAtMs: item.expiryTime ? Date.parse(item.expiryTime) : null,
          environment: sub.testPurchase ? 'SANDBOX' : 'PRODUCTION',
          store: 'PLAY_STORE',
          productId: item.productId ?? null,
          periodType: trial ? 'TRIAL' : 'NORMAL',
          priceInPurchasedCurrency: price,
          currency: currency ?? (price === 0 ? 'USD' : null),
          raw: { play_subscription: { ...sub, purchase_token: token } },
          ...(offer ? { offer } : {}),
        },
        ctx,
      ),
    ],
  };
}

/** Google's answer for a one-time product purchase (ProductPurchase v1), the fields we read. */
export interface GoogleProduct {
  purchaseState?: number | null;
  purchaseType?: number | null;
  orderId?: string | null;
  purchaseTimeMillis?: string | null;
  productId?: string | null;
  quantity?: number | null;
}

/**
 * A Google Play one-time purchase: its own conversion keyed on the order id (the purchase token when Google gives
 * none, as for promo codes), NON_RENEWING_PURCHASE at the price and currency the app sent (Google does not report
 * one). purchaseType 0 (test) is SANDBOX; promo (1) and rewarded (2) purchases cost nothing (price 0). Not
 * PURCHASED: a pending purchase is 409; a cancelled one is 409 unless its purchase was recorded before, when it is
 * the void of that purchase: a REFUND.
 */
export function googleProductEvents(
  p: GoogleProduct,
  token: string,
  ctx: ReportContext & { productId: string; price: number; currency: string },
  purchaseRecorded: boolean,
): Normalised {
  const orderId = p.orderId || token;
  const purchasedAtMs = p.purchaseTimeMillis ? Number(p.purchaseTimeMillis) : 0;
  const environment = p.purchaseType === 0 ? 'SANDBOX' : 'PRODUCTION';
  const base = {
    transactionId: orderId,
    originalTransactionId: orderId,
    purchasedAtMs,
    environment,
    store: 'PLAY_STORE',
    productId: p.productId ?? ctx.productId,
  } as const;
  if (p.purchaseState === 1 && purchaseRecorded) {
    return {
      ok: true,
      events: [
        storeDirectEvent(
          { ...base, type: 'REFUND', eventTimestampMs: purchasedAtMs, cancelReason: 'CUSTOMER_SUPPORT', raw: { play_product: p } },
          ctx,
        ),
      ],
    };
  }
  if (p.purchaseState !== 0 && p.purchaseState !== null && p.purchaseState !== undefined) {
    const state = p.purchaseState === 1 ? 'CANCELED' : p.purchaseState === 2 ? 'PENDING' : String(p.purchaseState);
    return {
      ok: false,
      type: 'StorePurchaseNotPurchased',
      detail: `The one-time purchase is not in PURCHASED state (Google Play purchaseState ${state}).`,
    };
  }
  const free = p.purchaseType === 1 || p.purchaseType === 2;
  return {
    ok: true,
    events: [
      storeDirectEvent(
        {
          ...base,
          type: 'NON_RENEWING_PURCHASE',
          eventTimestampMs: purchasedAtMs,
          periodType: 'NORMAL',
          priceInPurchasedCurrency: free ? 0 : ctx.price,
          currency: ctx.currency.toUpperCase(),
          raw: { play_product: { ...p, purchase_token: token } },
        },
        ctx,
      ),
    ],
  };
}
