// What the API and the store-purchase workflow share: its id, input, answer and the business failures it ends with
// (each an ApplicationFailure type with the HTTP status the API answers). No workflow code here.
import type { StorePlatform } from '../schema/types.js';

export interface StorePurchaseInput {
  appId: string;
  platform: StorePlatform;
  proofHash: string;
  signedTransaction?: string;
  purchaseToken?: string;
  /** Android one-time products only, with price and currency (Google does not report a one-time price). */
  productId?: string;
  price?: number;
  currency?: string;
  referralCode: string | null;
  appUserId: string | null;
  /** When the API received the report (the FX date of an Android renewal, which Google does not date). */
  receivedAtMs: number;
}

/** The HTTP answer of POST /api/sdk/purchase (spec), exactly. */
export interface StorePurchaseAnswer {
  success: true;
  /** The store verifier's name (app_store, google_play): a string, never a boolean. */
  validated: string;
  environment: 'PRODUCTION' | 'SANDBOX';
  event_type: string;
  /** Every event of the report was recorded before (double reporting is safe). */
  duplicate: boolean;
  /** The event is in the purchase event log (by this report or an earlier one). */
  recorded: boolean;
  /** processed: the conversion pipeline applied it (false when it was recorded with a processing error). */
  result: { processed: boolean; event_id: string };
}

/** Business failures: ApplicationFailure type -> HTTP status. Details carry `{ detail, fields? }`. */
export const STORE_PURCHASE_FAILURES = {
  /** Not switched to store-direct, credentials missing, verification failed. */
  StorePurchaseRejected: 400,
  /** Android purchase not in PURCHASED state. */
  StorePurchaseNotPurchased: 409,
  /** Fields the store answer needs from the report (price, currency). */
  StorePurchaseInvalid: 422,
  /** The store could not answer (outage, rate limit, timeout); retry later. */
  StoreUnavailable: 503,
  /** No exchange rate for the currency and date (or the source is away); nothing was recorded; retry later. */
  FxRateUnavailable: 503,
} as const;

export type StorePurchaseFailureType = keyof typeof STORE_PURCHASE_FAILURES;

export interface StorePurchaseFailureDetails { detail: string; fields?: string[] }

export function storePurchaseWorkflowId(appId: string, proofHash: string): string {
  return `store-purchase/${appId}/${proofHash}`;
}
