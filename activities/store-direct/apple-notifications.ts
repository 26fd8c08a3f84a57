// The App Store adapter's activities (workflows/apple-notification.ts): the taken-in raw item as the pipeline's
// events, by its source (a pure reading of the signed payload, lib/apple-notification.ts), bound to its user (the one
// binding lookup, activities/store-direct/notifications.ts), and the hand-off to the SAME conversion workflows as
// /sdk/purchase with the same idempotency keys, so a transaction both notified and reported counts once. The raw
// item is marked normalised once everything of it was handed over.
import { log } from '@temporalio/activity';
import { findRawItem, markRawItemNormalised } from '../../db/raw-intake.js';
import { hasLaterStateChange, hasPurchaseEvent } from '../../db/purchase-events.js';
import { NOTIFICATION_SOURCES } from '../../db/store-notifications.js';
import { appleNotificationPlan, type AppleNotification, type NotificationPlan } from '../../lib/apple-notification.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import type { RawIntakeRow } from '../../schema/types.js';
import type { StoreNotificationInput, StoreNotificationOutcome } from '../../workflows/store-notification-messages.js';
import type { StoreDirectContext } from './context.js';
import { boundUserOf, handToItsConversion, purchaseReported } from './notifications.js';

/** A raw item as a plan (pure rules per store). */
const NORMALISERS: Record<string, (row: RawIntakeRow) => NotificationPlan> = {
  [NOTIFICATION_SOURCES.ios]: (row) =>
    appleNotificationPlan(
      row.payload.notification as AppleNotification,
      row.payload.transaction ?? undefined,
      row.payload.renewalInfo ?? undefined,
    ),
};

export interface PlannedNotification {
  kind: StoreNotificationOutcome['kind'];
  reason: string | null;
  events: PurchaseEvent[];
  /** An unbound first purchase the app has not reported yet: wait for the report before applying it as organic. */
  waitForReport: boolean;
}

export interface HandOffInput {
  appId: string;
  source: string;
  externalId: string;
  events: PurchaseEvent[];
}

export function appleNotificationActivities(ctx: StoreDirectContext) {
  return {
    async planStoreNotification({ appId, source, externalId }: StoreNotificationInput): Promise<PlannedNotification> {
      const row = await findRawItem(ctx.db, appId, source, externalId);
      const normalise = NORMALISERS[source];
      if (!row || !normalise)
        return {
          kind: 'ignored',
          reason: row ? `no normaliser for source ${source}` : 'the raw item is gone',
          events: [],
          waitForReport: false,
        };
      const plan = normalise(row);
      if (plan.kind !== 'events')
        return { kind: plan.kind, reason: plan.kind === 'ignored' ? plan.reason : null, events: [], waitForReport: false };
      const appUserId = (await boundUserOf(ctx, appId, plan.accountToken, 'attributed_or_identified')) ?? null;
      const events = appUserId ? plan.events.map((e) => ({ ...e, appUserId })) : plan.events;
      const waitForReport = plan.opensConversion && !appUserId && !(await hasPurchaseEvent(ctx.db, appId, events[0]!));
      return { kind: 'events', reason: null, events, waitForReport };
    },

    /** The app's report of this first purchase is recorded (it carried the app's user and code). */
    isPurchaseReported: purchaseReported(ctx),

    async handOffStoreNotification(input: HandOffInput): Promise<StoreNotificationOutcome['events']> {
      const handed: StoreNotificationOutcome['events'] = [];
      for (const event of input.events) {
        if (await hasLaterStateChange(ctx.db, input.appId, event)) {
          log.info('store notification superseded by a later state change; not applied', {
            appId: input.appId,
            externalId: input.externalId,
            type: event.type,
          });
          handed.push({ type: event.type, eventId: null, error: 'superseded by a later state change', duplicate: false });
          continue;
        }
        // The conversion answers a repeated update id with its first result: whether it is news is read here.
        const recordedBefore = await hasPurchaseEvent(ctx.db, input.appId, event);
        const result = await handToItsConversion(input.appId, event);
        handed.push({ type: event.type, eventId: result.eventId, error: result.error, duplicate: recordedBefore || result.duplicate });
      }
      await markRawItemNormalised(ctx.db, input.appId, input.source, input.externalId);
      return handed;
    },
  };
}
