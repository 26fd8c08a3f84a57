// Google Play real-time developer notifications (issue 31), pure rules: the Pub/Sub push body, the notification it
// carries (DeveloperNotification, base64 JSON in `message.data`), the order sequence of a subscription (renewal order
// ids are GPA.xxxx..0, ..1, ..2) and what a notified subscription records. The events are those a report of the same
// purchase token makes (lib/store-purchase.ts googleSubscriptionEvents): same transaction, same idempotency
// timestamp, so a notification and the app's report of one period count once.
import type { PurchaseEvent } from './purchase-event.js';

/** The Pub/Sub push body (JSON Schema): what we read of it; Pub/Sub adds attributes and more. */
export const pubsubPushBody = {
  type: 'object',
  required: ['message'],
  properties: {
    message: {
      type: 'object',
      required: ['data', 'messageId'],
      properties: {
        data: { type: 'string', minLength: 1, maxLength: 65_536 },
        messageId: { type: 'string', minLength: 1, maxLength: 128 },
        message_id: { type: 'string' },
        publishTime: { type: 'string', maxLength: 64 },
        attributes: { type: ['object', 'null'] },
      },
    },
    subscription: { type: 'string', maxLength: 512 },
  },
} as const;

export interface PubsubPush {
  message: { data: string; messageId: string; publishTime?: string };
  subscription?: string;
}

/** Google's DeveloperNotification, the fields we read. */
export interface DeveloperNotification {
  version?: string;
  packageName: string;
  eventTimeMillis: string;
  subscriptionNotification?: { notificationType: number; purchaseToken: string; subscriptionId?: string };
  oneTimeProductNotification?: { notificationType: number; purchaseToken: string; sku?: string };
  voidedPurchaseNotification?: { purchaseToken: string; orderId: string; productType?: number; refundType?: number };
  testNotification?: { version?: string };
}

export type NotificationKind = 'subscription' | 'one_time' | 'voided' | 'test';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max = 512): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/**
 * The notification of a push's `message.data`, or what is wrong with it (the field it names). Exactly one of the
 * four kinds; purchase tokens and order ids bounded (they become workflow ids and event keys).
 */
export function decodeNotification(
  data: string,
): { ok: true; notification: DeveloperNotification; kind: NotificationKind } | { ok: false; detail: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    return { ok: false, detail: 'message.data is not base64 of a JSON Google Play developer notification' };
  }
  if (!isObject(parsed) || !text(parsed.packageName, 255))
    return { ok: false, detail: 'message.data carries no packageName: not a Google Play developer notification' };
  if (typeof parsed.eventTimeMillis !== 'string' || !/^\d{1,16}$/.test(parsed.eventTimeMillis))
    return { ok: false, detail: 'message.data carries no eventTimeMillis' };
  const n = parsed as unknown as DeveloperNotification;
  const kinds: NotificationKind[] = [];
  if (isObject(parsed.subscriptionNotification)) {
    const s = parsed.subscriptionNotification;
    if (!Number.isInteger(s.notificationType) || !text(s.purchaseToken))
      return { ok: false, detail: 'subscriptionNotification needs notificationType and purchaseToken' };
    kinds.push('subscription');
  }
  if (isObject(parsed.oneTimeProductNotification)) kinds.push('one_time');
  if (isObject(parsed.voidedPurchaseNotification)) {
    const v = parsed.voidedPurchaseNotification;
    if (!text(v.purchaseToken) || !text(v.orderId))
      return { ok: false, detail: 'voidedPurchaseNotification needs purchaseToken and orderId' };
    kinds.push('voided');
  }
  if (isObject(parsed.testNotification)) kinds.push('test');
  if (kinds.length !== 1)
    return {
      ok: false,
      detail:
        'message.data must carry exactly one of subscriptionNotification, ' +
        'oneTimeProductNotification, voidedPurchaseNotification, testNotification',
    };
  return { ok: true, notification: n, kind: kinds[0]! };
}

// ---- the order sequence ------------------------------------------------------------------------------------------

/** An order id's place in its subscription: -1 for the first order (no suffix), N for the renewal `..N`. */
export function orderIndex(orderId: string): { base: string; index: number } {
  const m = /^(.*)\.\.(\d{1,6})$/.exec(orderId);
  return m ? { base: m[1]!, index: Number(m[2]) } : { base: orderId, index: -1 };
}

const orderIdAt = (base: string, index: number): string => (index < 0 ? base : `${base}..${index}`);

/** At most this many periods are filled in from one notification (a bound on a runaway gap, about 8 years monthly). */
export const MAX_MISSED_PERIODS = 100;

/**
 * The orders between what we recorded of the subscription and its latest successful order, in sequence (the
 * latest last). Nothing recorded: only the latest (a subscription we never saw is not back-filled: its earlier
 * periods were never ours to count). Periods already recorded, or earlier than the last recorded, are left out.
 */
export function ordersToRecord(latestOrderId: string, recordedOrderIds: string[]): string[] {
  const latest = orderIndex(latestOrderId);
  const recorded = recordedOrderIds
    .map(orderIndex)
    .filter((o) => o.base === latest.base)
    .map((o) => o.index);
  if (recorded.length === 0) return [latestOrderId];
  const from = Math.max(Math.max(...recorded) + 1, latest.index - MAX_MISSED_PERIODS + 1);
  const orders: string[] = [];
  for (let i = from; i <= latest.index; i += 1) orders.push(orderIdAt(latest.base, i));
  return orders;
}

/**
 * The latest period's event (googleSubscriptionEvents' answer) repeated for each order to record: the first order
 * is the INITIAL_PURCHASE, the others RENEWALs, each its own transaction; the price is the plan's current one
 * (Google answers no past prices) and the FX date the notification's event time.
 */
export function periodEvents(latest: PurchaseEvent, orders: string[]): PurchaseEvent[] {
  return orders.map((orderId) => ({
    ...latest,
    transactionId: orderId,
    type: orderIndex(orderId).index < 0 ? 'INITIAL_PURCHASE' : 'RENEWAL',
    // The first order's purchase date is the subscription's start (the report's rule); renewals are priced at the event.
    purchasedAtMs: orderIndex(orderId).index < 0 ? latest.eventTimestampMs : latest.purchasedAtMs,
  }));
}

// ---- lifecycle -----------------------------------------------------------------------------------------------

/** Google's SubscriptionNotification types we turn into lifecycle events (the rest only record periods). */
const SUBSCRIPTION_NOTIFICATION = {
  RECOVERED: 1,
  RENEWED: 2,
  CANCELED: 3,
  PURCHASED: 4,
  ON_HOLD: 5,
  IN_GRACE_PERIOD: 6,
  RESTARTED: 7,
  REVOKED: 12,
  EXPIRED: 13,
} as const;

/**
 * The lifecycle event a subscription notification adds after its periods: CANCELED -> CANCELLATION (auto-renew
 * off; earned commission stays), RESTARTED -> UNCANCELLATION, ON_HOLD / IN_GRACE_PERIOD -> BILLING_ISSUE, EXPIRED ->
 * EXPIRATION. Its transaction is the latest order, its timestamp Google's event time (one event per notification; a
 * redelivered message is stopped before, by its messageId). REVOKED is a refund: Google sends the voided-purchase
 * notification for it, which reverses the period. Undefined for types that only record periods.
 */
export function lifecycleEvent(notificationType: number, latest: PurchaseEvent, eventTimeMs: number): PurchaseEvent | undefined {
  const T = SUBSCRIPTION_NOTIFICATION;
  const type =
    notificationType === T.CANCELED
      ? 'CANCELLATION'
      : notificationType === T.RESTARTED
        ? 'UNCANCELLATION'
        : notificationType === T.ON_HOLD || notificationType === T.IN_GRACE_PERIOD
          ? 'BILLING_ISSUE'
          : notificationType === T.EXPIRED
            ? 'EXPIRATION'
            : undefined;
  if (!type) return undefined;
  return {
    ...latest,
    type,
    eventTimestampMs: eventTimeMs,
    purchasedAtMs: null,
    priceUsd: null,
    priceInPurchasedCurrency: null,
    currency: null,
    periodType: null,
    cancelReason: type === 'CANCELLATION' ? 'UNSUBSCRIBE' : null,
  };
}
