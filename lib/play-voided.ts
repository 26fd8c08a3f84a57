// Google Play voided purchases (the Voided Purchases API, `purchases.voidedpurchases.list` with type=1), pure rules:
// which window a poll asks for, and a voided order as the REFUND event of the period it paid for. Google's
// SubscriptionPurchaseV2 carries no refund state, so this list is where an Android subscription refund is seen.
import type { PurchaseEvent } from './purchase-event.js';
import { storeDirectEvent } from './store-purchase.js';
import type { Environment } from '../schema/types.js';

/** One entry of Google's answer (VoidedPurchase), the fields we read. */
export interface VoidedEntry {
  purchaseToken: string;
  orderId: string;
  voidedTimeMillis: string;
  purchaseTimeMillis?: string | null;
  voidedSource?: number | null;
  voidedReason?: number | null;
  refundType?: number | null;
  voidedQuantity?: number | null;
}

/** Google refuses a startTime older than 30 days; a little margin keeps the request inside it. */
export const VOIDED_LOOKBACK_MS = 30 * 86_400_000 - 10 * 60_000;
/**
 * Google filters by the time its systems saw the void, not the voidedTimeMillis it answers, and a void may become
 * visible a little late: each poll asks again for the last hour before the previous one ended. A void seen twice is
 * the same event (same idempotency key), never a second reversal.
 */
export const VOIDED_OVERLAP_MS = 60 * 60_000;

/** The [startTime, endTime] (ms) of the next poll: from the previous end (less the overlap), at most 30 days back. */
export function voidedWindow(syncedUntilMs: number | null, nowMs: number): { startMs: number; endMs: number } {
  const oldest = nowMs - VOIDED_LOOKBACK_MS;
  return { startMs: syncedUntilMs === null ? oldest : Math.min(nowMs, Math.max(oldest, syncedUntilMs - VOIDED_OVERLAP_MS)), endMs: nowMs };
}

/**
 * What a voided order refunds, found in what we recorded: a period of the subscription keyed on its purchase token
 * (the order id names the period: `..N` is a renewal), or the one-time purchase keyed on its order id. Or nothing:
 * an order we never recorded is ignored, with the reason.
 */
export type VoidTarget =
  | { kind: 'subscription'; environment: Environment }
  | { kind: 'one_time'; environment: Environment; purchaseTimestampMs: number }
  | { kind: 'unknown'; reason: string };

/** Names of Google's voidedReason / voidedSource codes (kept with the event; the refund is the same for all). */
const REASONS = [
  'other',
  'remorse',
  'not_received',
  'defective',
  'accidental_purchase',
  'fraud',
  'friendly_fraud',
  'chargeback',
  'unacknowledged_purchase',
];
const SOURCES = ['user', 'developer', 'google'];

/**
 * The REFUND of the voided order. Subscription: transaction = the order id, conversion key = the purchase token,
 * timestamp = voidedTimeMillis (the poll and a later report read the same entry, so both make the same idempotency
 * key). One-time product: transaction and conversion key = the order id, timestamp = the recorded purchase's, the
 * same key a later products.get report of the cancelled order makes (lib/store-purchase.ts googleProductEvents).
 */
export function voidedRefundEvent(entry: VoidedEntry, target: Exclude<VoidTarget, { kind: 'unknown' }>): PurchaseEvent {
  const subscription = target.kind === 'subscription';
  const voidedAtMs = Number(entry.voidedTimeMillis);
  return storeDirectEvent(
    {
      type: 'REFUND',
      transactionId: entry.orderId,
      originalTransactionId: subscription ? entry.purchaseToken : entry.orderId,
      eventTimestampMs: subscription ? voidedAtMs : target.purchaseTimestampMs,
      purchasedAtMs: entry.purchaseTimeMillis ? Number(entry.purchaseTimeMillis) : null,
      environment: target.environment,
      store: 'PLAY_STORE',
      cancelReason: 'CUSTOMER_SUPPORT',
      raw: {
        play_voided_purchase: {
          ...entry,
          voided_reason_name: REASONS[entry.voidedReason ?? -1] ?? null,
          voided_source_name: SOURCES[entry.voidedSource ?? -1] ?? null,
        },
      },
    },
    { appUserId: null, referralCode: null },
  );
}

/** An entry Google answered that names no order or token cannot be matched to anything. */
export function isUsableEntry(e: { [K in keyof VoidedEntry]?: VoidedEntry[K] | null }): e is VoidedEntry {
  return (
    typeof e.orderId === 'string' &&
    e.orderId.length > 0 &&
    e.orderId.length <= 512 &&
    typeof e.purchaseToken === 'string' &&
    e.purchaseToken.length > 0 &&
    typeof e.voidedTimeMillis === 'string' &&
    /^\d{1,16}$/.test(e.voidedTimeMillis)
  );
}

/** Subscription states where the subscription is paid up: a later report in any other state checks for voids. */
export const PAID_UP_STATES: ReadonlySet<string> = new Set(['SUBSCRIPTION_STATE_ACTIVE', 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD']);
