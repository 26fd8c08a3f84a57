// The App Store's side of the store-notification flow (workflows/store-notification.ts): the registered type
// `storeNotificationWorkflow`, `store-notification/{app_id}/{source}/{external_id}`. The plan is a pure reading of
// the signed payload kept at intake (lib/apple-notification.ts) bound to its user; a first purchase bound to no one
// waits (up to bindingWaitMs, 10 minutes) for the app's report; if it comes, the notification's copy is a duplicate;
// if not, it is applied as organic (a later report can still attribute it). The hand-over also marks the item
// normalised (with nothing to count, an empty hand-over marks it). Activities are regular ones retried with
// back-off: nobody waits on the answer, and nothing taken in may be dropped.
import { ActivityFailure, ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { appleNotificationActivities, PlannedNotification } from '../activities/store-direct/apple-notifications.js';
import type { fxActivities } from '../activities/store-direct/fx.js';
import { runStoreNotification, type StoreNotificationAdapter } from './store-notification.js';
import { DEFAULT_BINDING_WAIT_MS, type StoreNotificationInput, type StoreNotificationOutcome } from './store-notification-messages.js';

type AppleActivities = ReturnType<typeof appleNotificationActivities> & ReturnType<typeof fxActivities>;
const retried = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' } as const;
// An attempt taken by a worker that dies (SIGKILL, OOM) is retried only once its start-to-close runs out, so the
// bounds are tight: reads, and hand-offs a repeat of which records nothing twice (update id = idempotency key).
// test/drills/store-notification-mix.test.ts stalled 2 minutes per notification in flight at the kill before.
const { planStoreNotification, isPurchaseReported, handOffStoreNotification } = proxyActivities<AppleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: retried,
});
// The FX source may be away for a while (retried); a currency it never rates ends the run (the catch-up starts it
// again). The first read of the full ECB history can take a while.
const { priceStorePurchaseInUsd } = proxyActivities<AppleActivities>({ startToCloseTimeout: '60 seconds', retry: retried });

type Handed = StoreNotificationOutcome['events'];
const sourceOf = (input: StoreNotificationInput) => ({ appId: input.appId, source: input.source, externalId: input.externalId });

const appStore: StoreNotificationAdapter<StoreNotificationInput, PlannedNotification, never, Handed, StoreNotificationOutcome> = {
  plan: planStoreNotification,
  toCount: (plan) => (plan.kind === 'events' ? plan.events : null),
  reportWait: (input, plan) =>
    plan.waitForReport ? { waitMs: input.bindingWaitMs ?? DEFAULT_BINDING_WAIT_MS, everyMs: 30_000, lookFirst: false } : null,
  isReported: isPurchaseReported,
  async price(input, events) {
    try {
      return await priceStorePurchaseInUsd({ events, receivedAtMs: Date.now() });
    } catch (err) {
      const cause = err instanceof ActivityFailure ? err.cause : err;
      const reason = cause instanceof ApplicationFailure ? cause.message : String(err);
      log.warn('store notification not priced; the hourly catch-up starts it again', { ...sourceOf(input), reason });
      throw ApplicationFailure.nonRetryable(reason, 'StoreNotificationNotPriced');
    }
  },
  handOver: (input, priced) => handOffStoreNotification({ ...sourceOf(input), events: priced }),
  // The hand-over marks the item itself; with nothing counted, the recorded histories mark it by an empty hand-over.
  async markDone(input, handed) {
    if (handed === null) await handOffStoreNotification({ ...sourceOf(input), events: [] });
  },
  outcome(input, { plan, reported, handed }) {
    if (handed === null) {
      if (plan.reason) log.info('store notification acknowledged, nothing to count', { ...sourceOf(input), reason: plan.reason });
      return { kind: plan.kind, reason: plan.reason, events: [], waited: null };
    }
    const waited = reported === null ? null : reported ? 'reported' : 'timed_out';
    return { kind: 'events', reason: handed.find((e) => e.error)?.error ?? null, events: handed, waited };
  },
};

export async function storeNotificationWorkflow(input: StoreNotificationInput): Promise<StoreNotificationOutcome> {
  return runStoreNotification(appStore, input);
}
