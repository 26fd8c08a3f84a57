// What the API and the store-purchase workflow share: its id, input, answer and the business failures it ends with
// (ApplicationFailure types; api/sdk/purchase.ts alone turns them into HTTP statuses). No workflow code here.
import type { PurchaseResult } from '@svc/sdk/types';
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

/**
 * The HTTP answer of POST /api/sdk/purchase (spec), exactly: the client SDK's own type of it (one definition for
 * both sides of the wire), always a success here (failures end the workflow with STORE_PURCHASE_FAILURES).
 */
export type StorePurchaseAnswer = PurchaseResult & { success: true };

/** Business failures: ApplicationFailure type -> what it means. Details carry `{ detail, fields? }`. */
export const STORE_PURCHASE_FAILURES = {
  StorePurchaseRejected: 'Not switched to store-direct, credentials missing, verification failed.',
  StorePurchaseNotPurchased: 'Android purchase not in PURCHASED state.',
  StorePurchaseInvalid: 'Fields the store answer needs from the report (price, currency).',
  StoreUnavailable: 'The store could not answer (outage, rate limit, timeout); retry later.',
  FxRateUnavailable: 'No exchange rate for the currency and date (or the source is away); nothing was recorded; retry later.',
} as const;

export type StorePurchaseFailureType = keyof typeof STORE_PURCHASE_FAILURES;

export interface StorePurchaseFailureDetails {
  detail: string;
  fields?: string[];
}

export function storePurchaseWorkflowId(appId: string, proofHash: string): string {
  return `store-purchase/${appId}/${proofHash}`;
}
