// The Google Play side of the store-notification flow (workflows/store-notification.ts): the registered type
// `playNotificationWorkflow`, `play-notification/{app_id}/{message_id}` (issue 31), started by the push endpoint once
// the verified push is kept in raw_intake. The plan is read from Google: a subscription notification records the
// periods its order sequence shows since the last one recorded (renewals missed while we were away), then its
// lifecycle event, priced at the FX rate of Google's event time; the first sight of a subscription whose buyer binds
// to no attributed user waits for the app's own report (which carries the referral code) before it is applied as
// organic. A voided purchase is refunded at once (the poll of workflows/play-voided-sync.ts stays the safety net).
// Test and one-time product notifications only show the path is wired: the app's report carries a one-time price.
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { fxActivities } from '../activities/store-direct/fx.js';
import type { googleNotificationActivities } from '../activities/store-direct/google-notifications.js';
import type { IngestResult } from './conversion-messages.js';
import { runStoreNotification, type StoreNotificationAdapter } from './store-notification.js';
import type { PlayNotificationInput, PlayNotificationOutcome, PlayNotificationPlan } from './store-notification-messages.js';

type GoogleActivities = ReturnType<typeof googleNotificationActivities> & ReturnType<typeof fxActivities>;
// Nothing waits on this run: transient faults (Google away, the database, Temporal) are retried until they pass;
// business failures (no credential, a purchase Google does not know) end the run, the push kept unnormalised. An
// attempt held by a worker that died is retried only when its start-to-close runs out, so the bounds are tight (as
// in workflows/apple-notification.ts): reads, and hand-offs whose repeat records nothing twice (update id = the
// idempotency key); recording up to 100 missed periods and pricing (the first ECB read) get a minute.
const retried = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' } as const;
const { readPlayNotification, playPurchaseReported, markPlayNotificationNormalised } = proxyActivities<GoogleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: retried,
});
const { priceStorePurchaseInUsd, recordPlayNotificationEvents } = proxyActivities<GoogleActivities>({
  startToCloseTimeout: '60 seconds',
  retry: retried,
});
// Google may list a void a little after notifying it: a few minutes of tries, then the poll finds it.
const { refundPlayVoidedNotification } = proxyActivities<GoogleActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 6 },
});

type Refund = PlayNotificationOutcome['refund'];

const googlePlay: StoreNotificationAdapter<PlayNotificationInput, PlayNotificationPlan, Refund, IngestResult[], PlayNotificationOutcome> = {
  plan: readPlayNotification,
  settle: (input, plan) => (plan.voided ? refundAtOnce(input.appId, plan.voided) : Promise.resolve(null)),
  toCount: (plan) => (plan.events.length > 0 ? plan.events : null),
  // Up to `reportWaitMs` for the app's report of the first period, a tenth of it between looks (200 ms to 30 s).
  reportWait: (input, plan) =>
    plan.awaitReport
      ? { waitMs: input.reportWaitMs, everyMs: Math.min(30_000, Math.max(200, Math.floor(input.reportWaitMs / 10))), lookFirst: true }
      : null,
  isReported: playPurchaseReported,
  price: (_input, events, plan) => priceStorePurchaseInUsd({ events, receivedAtMs: plan.eventTimeMs }),
  handOver: (input, priced) => recordPlayNotificationEvents({ appId: input.appId, events: priced }),
  markDone: (input) => markPlayNotificationNormalised({ appId: input.appId, messageId: input.messageId }),
  outcome: (_input, { plan, settled, reported, handed }) => ({
    kind: plan.kind,
    results: handed ?? [],
    refund: settled ?? null,
    reportedMeanwhile: reported ?? false,
    note: plan.note,
  }),
};

async function refundAtOnce(appId: string, voided: { purchaseToken: string; orderId: string }): Promise<Refund> {
  try {
    return await refundPlayVoidedNotification({ appId, ...voided });
  } catch (err) {
    if (err instanceof ActivityFailure) return 'left_to_poll';
    throw err;
  }
}

export async function playNotificationWorkflow(input: PlayNotificationInput): Promise<PlayNotificationOutcome> {
  return runStoreNotification(googlePlay, input);
}
