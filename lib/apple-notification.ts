// App Store Server Notifications V2, pure rules: a verified notification (its transaction and renewal info verified
// too) as the pipeline's events. Purchases, renewals, one-time charges and refunds are the transaction's own events
// (lib/store-purchase.ts appleTransactionEvents), so a transaction the app also reports has the same idempotency
// keys and counts once. A state change (cancel, uncancel, billing issue, expiry, product change, refund reversal)
// is keyed on the notification's signed date: a redelivery and the history's copy of it are the same event.
import type { PurchaseEvent } from './purchase-event.js';
import { appleTransactionEvents, storeDirectEvent, type AppleTransaction } from './store-purchase.js';

/** What we read of a decoded notification (ResponseBodyV2DecodedPayload). */
export interface AppleNotification {
  notificationType?: string;
  subtype?: string;
  notificationUUID?: string;
  signedDate?: number;
  data?: { environment?: string; bundleId?: string; appAppleId?: number };
}

/** What we read of decoded renewal info (JWSRenewalInfoDecodedPayload). */
export interface AppleRenewalInfo {
  autoRenewProductId?: string;
  productId?: string;
  autoRenewStatus?: number;
  appAccountToken?: string;
}

export type NotificationPlan =
  | { kind: 'test' }
  | { kind: 'ignored'; reason: string }
  | {
      kind: 'events';
      events: PurchaseEvent[];
      /** The user binding the store carries (iOS appAccountToken), null without one. */
      accountToken: string | null;
      /** The first event opens a conversion (a first purchase): unbound, it waits for the app's report (its code). */
      opensConversion: boolean;
    };

const PURCHASE_NOTIFICATIONS = new Set(['SUBSCRIBED', 'DID_RENEW', 'ONE_TIME_CHARGE', 'REFUND']);

/**
 * OFFER_REDEEMED (an offer code, or another offer, redeemed) by subtype: INITIAL_BUY, RESUBSCRIBE and UPGRADE carry
 * the transaction that redeemed it, and none (an offer for an active subscription) the current one: each is its
 * transaction's purchase, keyed like a SUBSCRIBED, a DID_RENEW or the app's report of it, so it counts once
 * whichever arrives. DOWNGRADE takes effect at the next renewal: a product change, as DID_CHANGE_RENEWAL_PREF's.
 */
const OFFER_REDEEMED = 'OFFER_REDEEMED';
const isPurchaseNotification = (type: string, subtype: string | undefined) =>
  PURCHASE_NOTIFICATIONS.has(type) || (type === OFFER_REDEEMED && subtype !== 'DOWNGRADE');

/** Notification type (and subtype) -> the state change it is; types absent here are acknowledged and logged. */
function stateChangeOf(type: string, subtype: string | undefined): string | undefined {
  switch (type) {
    case 'DID_CHANGE_RENEWAL_PREF':
      return 'PRODUCT_CHANGE';
    case OFFER_REDEEMED:
      return subtype === 'DOWNGRADE' ? 'PRODUCT_CHANGE' : undefined;
    case 'DID_CHANGE_RENEWAL_STATUS':
      return subtype === 'AUTO_RENEW_DISABLED' ? 'CANCELLATION' : subtype === 'AUTO_RENEW_ENABLED' ? 'UNCANCELLATION' : undefined;
    case 'DID_FAIL_TO_RENEW':
      return 'BILLING_ISSUE';
    case 'EXPIRED':
    case 'GRACE_PERIOD_EXPIRED':
      return 'EXPIRATION';
    case 'REFUND_REVERSED':
      return 'REFUND_REVERSED';
    default:
      return undefined;
  }
}

export function appleNotificationPlan(
  n: AppleNotification,
  tx: AppleTransaction | undefined,
  renewal: AppleRenewalInfo | undefined,
): NotificationPlan {
  const type = n.notificationType ?? '';
  if (type === 'TEST') return { kind: 'test' };
  // A family member losing access (Family Sharing turned off, the purchase refunded for the organiser) is not a
  // refund of anything this user paid: logged only.
  if (type === 'REVOKE') return { kind: 'ignored', reason: 'REVOKE: a family member lost access; not a refund' };
  const change = stateChangeOf(type, n.subtype);
  const purchase = isPurchaseNotification(type, n.subtype);
  if (!purchase && !change) return { kind: 'ignored', reason: `${type}${n.subtype ? ` (${n.subtype})` : ''} changes nothing we count` };
  if (!tx?.transactionId) return { kind: 'ignored', reason: `${type} carries no signed transaction` };
  const ctx = { appUserId: null, referralCode: null };
  const accountToken = tx.appAccountToken || renewal?.appAccountToken || null;
  if (purchase) {
    const events = appleTransactionEvents(tx, ctx);
    // A REFUND notification names a refunded transaction; one without a revocation date refunds nothing.
    if (type === 'REFUND' && events.length < 2) return { kind: 'ignored', reason: 'REFUND of a transaction with no revocation date' };
    return {
      kind: 'events',
      events,
      accountToken,
      opensConversion: events[0]!.type === 'INITIAL_PURCHASE' || events[0]!.type === 'NON_RENEWING_PURCHASE',
    };
  }
  const [bought] = appleTransactionEvents({ ...tx, revocationDate: undefined }, ctx);
  const event = storeDirectEvent(
    {
      type: change!,
      transactionId: bought!.transactionId,
      originalTransactionId: bought!.originalTransactionId,
      eventTimestampMs: n.signedDate ?? tx.signedDate ?? 0,
      environment: bought!.environment,
      store: 'APP_STORE',
      productId: bought!.productId,
      newProductId: change === 'PRODUCT_CHANGE' ? (renewal?.autoRenewProductId ?? null) : null,
      raw: {
        app_store_notification: {
          notificationType: type,
          subtype: n.subtype ?? null,
          notificationUUID: n.notificationUUID ?? null,
          signedDate: n.signedDate ?? null,
        },
        app_store_transaction: tx,
      },
    },
    ctx,
  );
  return { kind: 'events', events: [event], accountToken, opensConversion: false };
}
