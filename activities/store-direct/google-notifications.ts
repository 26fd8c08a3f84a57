// The Google Play adapter's activities (workflows/google-notification.ts): read what a kept Google Play notification
// names (subscriptionsv2 for a subscription, with the buyer's binding, the one lookup of
// activities/store-direct/notifications.ts, and the periods we have not recorded yet), refund a voided order at once,
// tell whether the app reported a purchase meanwhile, hand events to their conversions in order, and mark the kept
// push normalised.
import { ApplicationFailure } from '@temporalio/activity';
import { GooglePlayError } from '../../clients/google-play.js';
import { recordedOrdersOfSubscription } from '../../db/conversions.js';
import { findRawItem, markRawItemNormalised } from '../../db/raw-intake.js';
import { NOTIFICATION_SOURCES } from '../../db/store-notifications.js';
import { VOIDED_LOOKBACK_MS, VOIDED_OVERLAP_MS } from '../../lib/play-voided.js';
import {
  decodeNotification,
  lifecycleEvent,
  ordersToRecord,
  periodEvents,
  type DeveloperNotification,
} from '../../lib/play-notification.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { googleSubscriptionEvents, type GoogleSubscription } from '../../lib/store-purchase.js';
import type { IngestResult } from '../../workflows/conversion-messages.js';
import type { PlayNotificationInput, PlayNotificationPlan } from '../../workflows/store-notification-messages.js';
import type { StoreDirectContext } from './context.js';
import { boundUserOf, handToItsConversion, purchaseReported } from './notifications.js';
import { applyVoidedEntry, googleOfApp, usableVoids } from './voided.js';

/** A Google failure as the activity's: an outage is retried, anything else ends the run with the reason. */
function googleFailure(err: unknown): unknown {
  if (!(err instanceof GooglePlayError) || err.kind === 'unavailable') return err;
  return ApplicationFailure.nonRetryable(err.message, 'PlayNotificationRefused');
}

/** subscriptionsv2's buyer ids (not in lib/store-purchase.ts's view of it: only notifications read them). */
type NotifiedSubscription = GoogleSubscription & { externalAccountIdentifiers?: { obfuscatedExternalAccountId?: string | null } | null };

export function googleNotificationActivities(ctx: StoreDirectContext) {
  async function subscriptionPlan(
    input: PlayNotificationInput,
    n: DeveloperNotification,
    base: PlayNotificationPlan,
    sub: NotifiedSubscription,
  ): Promise<PlayNotificationPlan> {
    const { notificationType, purchaseToken } = n.subscriptionNotification!;
    const obfuscated = sub.externalAccountIdentifiers?.obfuscatedExternalAccountId;
    const boundUser = await boundUserOf(ctx, input.appId, obfuscated, 'attributed');
    const normalised = googleSubscriptionEvents(sub, purchaseToken, base.eventTimeMs, { appUserId: boundUser ?? null, referralCode: null });
    if (!normalised.ok) return { ...base, note: normalised.detail };
    const latest = normalised.events[0]!;
    const recorded = await recordedOrdersOfSubscription(ctx.db, input.appId, purchaseToken);
    const periods = periodEvents(latest, ordersToRecord(latest.transactionId!, recorded));
    const lifecycle = lifecycleEvent(notificationType, latest, base.eventTimeMs);
    return {
      ...base,
      events: [...periods, ...(lifecycle ? [lifecycle] : [])],
      awaitReport: input.reportWaitMs > 0 && boundUser === undefined && recorded.length === 0 && periods.length > 0,
    };
  }

  return {
    async readPlayNotification(input: PlayNotificationInput): Promise<PlayNotificationPlan> {
      const row = await findRawItem(ctx.db, input.appId, NOTIFICATION_SOURCES.android, input.messageId);
      const data = (row?.payload as { message?: { data?: unknown } } | undefined)?.message?.data;
      const decoded = typeof data === 'string' ? decodeNotification(data) : undefined;
      if (!decoded?.ok)
        throw ApplicationFailure.nonRetryable(
          `raw intake of Play message ${input.messageId} holds no readable notification`,
          'PlayNotificationRefused',
        );
      const n = decoded.notification;
      const base: PlayNotificationPlan = {
        kind: decoded.kind,
        eventTimeMs: Number(n.eventTimeMillis),
        events: [],
        awaitReport: false,
        voided: null,
        note: null,
      };
      if (decoded.kind === 'voided') {
        const v = n.voidedPurchaseNotification!;
        return { ...base, voided: { purchaseToken: v.purchaseToken, orderId: v.orderId } };
      }
      if (decoded.kind !== 'subscription') return base;
      const store = await googleOfApp(ctx, input.appId);
      if (!store.active) return { ...base, note: 'the app no longer validates Android purchases store-direct' };
      if (!store.google) throw ApplicationFailure.nonRetryable(store.error, 'PlayNotificationRefused');
      let sub: NotifiedSubscription;
      try {
        sub = await store.google.getSubscription(store.packageName!, n.subscriptionNotification!.purchaseToken);
      } catch (err) {
        throw googleFailure(err);
      }
      return subscriptionPlan(input, n, base, sub);
    },

    /**
     * The voided order, as Google's voided-purchases list has it (its voidedTimeMillis makes the refund's key, the
     * one the poll makes of the same void): refunded once whichever sees it first. Not listed yet: retried.
     */
    async refundPlayVoidedNotification({
      appId,
      purchaseToken,
      orderId,
    }: {
      appId: string;
      purchaseToken: string;
      orderId: string;
    }): Promise<'refund' | 'ignored'> {
      const store = await googleOfApp(ctx, appId);
      if (!store.active) return 'ignored';
      if (!store.google) throw ApplicationFailure.nonRetryable(store.error, 'PlayNotificationRefused');
      const now = Date.now();
      let listed;
      try {
        // The void happened moments ago; the overlap covers Google seeing it a little late, as the poll's does.
        listed = usableVoids(
          await store.google.voidedPurchasesIn(store.packageName!, {
            startMs: Math.max(now - VOIDED_LOOKBACK_MS, now - 24 * VOIDED_OVERLAP_MS),
            endMs: now,
          }),
        );
      } catch (err) {
        throw googleFailure(err);
      }
      const entry = listed.find((e) => e.orderId === orderId && e.purchaseToken === purchaseToken);
      if (!entry) throw ApplicationFailure.retryable(`Google does not list the void of order ${orderId} yet`, 'VoidNotListedYet');
      return applyVoidedEntry(ctx, appId, entry);
    },

    playPurchaseReported: purchaseReported(ctx),

    /** In order: a renewal after the period before it, the lifecycle event last. */
    async recordPlayNotificationEvents({ appId, events }: { appId: string; events: PurchaseEvent[] }): Promise<IngestResult[]> {
      const results: IngestResult[] = [];
      for (const event of events) results.push(await handToItsConversion(appId, event));
      return results;
    },

    async markPlayNotificationNormalised({ appId, messageId }: { appId: string; messageId: string }): Promise<void> {
      await markRawItemNormalised(ctx.db, appId, NOTIFICATION_SOURCES.android, messageId);
    },
  };
}
