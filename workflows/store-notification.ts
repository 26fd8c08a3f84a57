// One taken-in store notification, `store-notification/{app_id}/{source}/{external_id}` (docs/store-direct.md
// "Server notifications"): the raw item was verified and kept before the store heard 200; this workflow makes it
// the pipeline's events, prices them in USD at the purchase date's rate and hands them to the SAME conversion
// workflows as /sdk/purchase (same idempotency keys: a transaction notified and reported counts once), then marks
// the item normalised. A first purchase bound to no known user waits (up to bindingWaitMs, 10 minutes) for the
// app's report, which carries the user and the referral code; if the report comes, the notification's copy is a
// duplicate; if not, it is applied as organic (a later report can still attribute it). Activities are regular ones
// retried with back-off: nobody waits on the answer, and nothing taken in may be dropped.
import { ActivityFailure, ApplicationFailure, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { fxActivities } from '../activities/store-direct/fx.js';
import type { notificationActivities } from '../activities/store-direct/notifications.js';
import { DEFAULT_BINDING_WAIT_MS, type StoreNotificationInput, type StoreNotificationOutcome } from './store-notification-messages.js';

type StoreDirectActivities = ReturnType<typeof notificationActivities> & ReturnType<typeof fxActivities>;
const retried = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' } as const;
// An attempt taken by a worker that dies (SIGKILL, OOM) is retried only once its start-to-close runs out, so the
// bounds are tight: reads, and hand-offs a repeat of which records nothing twice (update id = idempotency key).
// test/drills/store-notification-mix.test.ts stalled 2 minutes per notification in flight at the kill before.
const { planStoreNotification, isPurchaseReported, handOffStoreNotification } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '30 seconds',
  retry: retried,
});
// The FX source may be away for a while (retried); a currency it never rates ends the run (the catch-up starts it
// again). The first read of the full ECB history can take a while.
const { priceStorePurchaseInUsd } = proxyActivities<StoreDirectActivities>({ startToCloseTimeout: '60 seconds', retry: retried });

const REPORT_CHECK_MS = 30_000;

export async function storeNotificationWorkflow(input: StoreNotificationInput): Promise<StoreNotificationOutcome> {
  const plan = await planStoreNotification(input);
  const source = { appId: input.appId, source: input.source, externalId: input.externalId };
  if (plan.kind !== 'events') {
    await handOffStoreNotification({ ...source, events: [] });
    if (plan.reason) log.info('store notification acknowledged, nothing to count', { ...source, reason: plan.reason });
    return { kind: plan.kind, reason: plan.reason, events: [], waited: null };
  }
  const waited = plan.waitForReport ? await waitForTheAppsReport(input, plan.events[0]!) : null;
  let priced;
  try {
    priced = await priceStorePurchaseInUsd({ events: plan.events, receivedAtMs: Date.now() });
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const reason = cause instanceof ApplicationFailure ? cause.message : String(err);
    log.warn('store notification not priced; the hourly catch-up starts it again', { ...source, reason });
    throw ApplicationFailure.nonRetryable(reason, 'StoreNotificationNotPriced');
  }
  const events = await handOffStoreNotification({ ...source, events: priced });
  return { kind: 'events', reason: events.find((e) => e.error)?.error ?? null, events, waited };
}

/** Until the app's report of the purchase is recorded or the wait is over: checked every 30 s (durable timers). */
async function waitForTheAppsReport(
  input: StoreNotificationInput,
  first: Parameters<typeof isPurchaseReported>[0]['event'],
): Promise<'reported' | 'timed_out'> {
  const waitMs = input.bindingWaitMs ?? DEFAULT_BINDING_WAIT_MS;
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    await sleep(Math.min(REPORT_CHECK_MS, until - Date.now()));
    if (await isPurchaseReported({ appId: input.appId, event: first })) return 'reported';
  }
  return 'timed_out';
}
