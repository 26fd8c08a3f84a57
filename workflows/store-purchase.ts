// One store-direct purchase report, `store-purchase/{app_id}/{proof_hash}` (spec "POST /sdk/purchase", DESIGN.md
// "Temporal"): verify the proof with the store, convert its price to USD at the purchase date's rate, then hand the
// verified, normalised events to the SAME conversion workflow as webhooks (an activity does the update-with-start:
// a workflow cannot). Callers start it with conflict policy USE_EXISTING (a report while it runs joins it) and may
// start it again once it closed: after a retryable failure it runs again; after success the events' idempotency
// keys make the conversion answer `duplicate`, and a later state of the same transaction (a refund) is recorded.
// Business rejections end the run with a typed ApplicationFailure (STORE_PURCHASE_FAILURES); a store or rate
// source that stays away past the bounded retries ends it as StoreUnavailable. The three steps are local activities
// (run by the worker inside the workflow task, like the conversion's own write): a report is answered while the
// app waits, and regular activities would cost three more task round trips through the server each.
import { ActivityFailure, ApplicationFailure, proxyLocalActivities, type LocalActivityOptions } from '@temporalio/workflow';
import type { createStoreDirectActivities } from '../activities/store-direct/index.js';
import { STORE_PURCHASE_FAILURES, type StorePurchaseAnswer, type StorePurchaseInput } from './store-purchase-messages.js';

type StoreDirectActivities = ReturnType<typeof createStoreDirectActivities>;
const bounded = (startToCloseTimeout: `${number} seconds`, maximumAttempts: number): LocalActivityOptions => ({
  startToCloseTimeout,
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts },
});
// Store outages: a few quick retries, then the caller hears 503 and reports again later.
const { verifyStorePurchase } = proxyLocalActivities<StoreDirectActivities>(bounded('20 seconds', 3));
// The first read of the full ECB history can take a while.
const { priceStorePurchaseInUsd } = proxyLocalActivities<StoreDirectActivities>(bounded('60 seconds', 3));
// Update-with-start is idempotent (update id = idempotency key): retrying the hand-off never records twice.
const { recordStorePurchase } = proxyLocalActivities<StoreDirectActivities>(bounded('30 seconds', 5));

export async function storePurchaseWorkflow(input: StorePurchaseInput): Promise<StorePurchaseAnswer> {
  try {
    const verified = await verifyStorePurchase(input);
    const events = await priceStorePurchaseInUsd({ events: verified.events, receivedAtMs: input.receivedAtMs });
    return await recordStorePurchase({
      appId: input.appId,
      proofHash: input.proofHash,
      platform: input.platform,
      validated: verified.validated,
      environment: verified.environment,
      events,
      recordedBefore: verified.recordedBefore,
    });
  } catch (err) {
    throw asFailure(err);
  }
}

/** The business failure an activity ended with, or StoreUnavailable when the bounded retries ran out. */
function asFailure(err: unknown): unknown {
  // A local activity's failure may arrive wrapped in ActivityFailure or as it is.
  if (!(err instanceof ActivityFailure) && !(err instanceof ApplicationFailure)) return err;
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && cause.type in STORE_PURCHASE_FAILURES) {
    return ApplicationFailure.create({
      type: cause.type,
      message: cause.message,
      details: cause.details ? [...cause.details] : [],
      nonRetryable: true,
    });
  }
  return ApplicationFailure.create({
    type: 'StoreUnavailable',
    nonRetryable: true,
    message: 'The store or the exchange-rate source could not be reached; report the purchase again later.',
    details: [{ detail: 'The store or the exchange-rate source could not be reached; report the purchase again later.' }],
  });
}
