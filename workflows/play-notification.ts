// One Google Play real-time developer notification, `play-notification/{app_id}/{message_id}` (issue 31), started by
// the push endpoint once the verified push is kept in raw_intake: read what it names from Google, record it through
// the SAME conversion workflows as every other event (the idempotency keys of a report of the same purchase, so the
// two count once), and mark the kept push normalised. A subscription notification records the periods its order
// sequence shows since the last one recorded (renewals missed while we were away), then its lifecycle event; the
// first sight of a subscription whose buyer binds to no attributed user waits for the app's own report (which
// carries the referral code) before it is applied as organic. A voided purchase is refunded at once (the poll of
// workflows/play-voided-sync.ts stays the safety net). Test and one-time product notifications only show the path
// is wired: the app's report carries a one-time price. Store outages are retried until they pass.
import { ActivityFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { createStoreDirectActivities } from '../activities/store-direct/index.js';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { PlayNotificationInput, PlayNotificationOutcome } from './play-notification-messages.js';

type StoreDirectActivities = ReturnType<typeof createStoreDirectActivities>;
// Nothing waits on this run: transient faults (Google away, the database, Temporal) are retried until they pass;
// business failures (no credential, a purchase Google does not know) end the run, the push kept unnormalised. An
// attempt held by a worker that died is retried only when its start-to-close runs out, so the bounds are tight (as
// in workflows/store-notification.ts): reads, and hand-offs whose repeat records nothing twice (update id = the
// idempotency key); recording up to 100 missed periods and pricing (the first ECB read) get a minute.
const retried = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' } as const;
const { readPlayNotification, playPurchaseReported, markPlayNotificationNormalised } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '30 seconds',
  retry: retried,
});
const { priceStorePurchaseInUsd, recordPlayNotificationEvents } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '60 seconds',
  retry: retried,
});
// Google may list a void a little after notifying it: a few minutes of tries, then the poll finds it.
const { refundPlayVoidedNotification } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 6 },
});

export async function playNotificationWorkflow(input: PlayNotificationInput): Promise<PlayNotificationOutcome> {
  const plan = await readPlayNotification(input);
  const outcome: PlayNotificationOutcome = { kind: plan.kind, results: [], refund: null, reportedMeanwhile: false, note: plan.note };
  if (plan.voided) outcome.refund = await refundAtOnce(input.appId, plan.voided);
  if (plan.events.length > 0) {
    if (plan.awaitReport) outcome.reportedMeanwhile = await waitForReport(input, plan.events[0]!);
    const priced = await priceStorePurchaseInUsd({ events: plan.events, receivedAtMs: plan.eventTimeMs });
    outcome.results = await recordPlayNotificationEvents({ appId: input.appId, events: priced });
  }
  await markPlayNotificationNormalised({ appId: input.appId, messageId: input.messageId });
  return outcome;
}

async function refundAtOnce(appId: string, voided: { purchaseToken: string; orderId: string }): Promise<PlayNotificationOutcome['refund']> {
  try {
    return await refundPlayVoidedNotification({ appId, ...voided });
  } catch (err) {
    if (err instanceof ActivityFailure) return 'left_to_poll';
    throw err;
  }
}

/** Up to `reportWaitMs` (workflow time) for the app's report of the first period; whether it came. Applied either way after. */
async function waitForReport(input: PlayNotificationInput, first: PurchaseEvent): Promise<boolean> {
  const step = Math.min(30_000, Math.max(200, Math.floor(input.reportWaitMs / 10)));
  const deadline = Date.now() + input.reportWaitMs;
  for (;;) {
    if (await playPurchaseReported({ appId: input.appId, event: first })) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(step, left));
  }
}
