// Hands a purchase event to its conversion workflow (DESIGN.md "Temporal") and waits for the update's result so the
// webhook answer can carry `event_id` and a processing `error`. Inbox first: the event is written to PostgreSQL
// (once per app and idempotency key) before Temporal sees it; when Temporal cannot take it within the answer limit
// the answer is 503 and the worker's drainer hands it over once Temporal is back. Events that belong to no
// conversion are recorded directly, and so are provider events of a platform validated store-direct (recorded with
// the reason, never counted: the store-direct report counts that purchase).
import { recordStandaloneEvent } from '../../actions/standalone-event.js';
import { answerWithin } from '../answer-within.js';
import { conversionKeyOf, idempotencyKey, isRefund, routeEvent, type PurchaseEvent } from '../../lib/purchase-event.js';
import { workflowIdOf } from '../../workflow-clients/conversion-ingest.js';
import { findOneTimeConversionKey } from '../../db/conversions.js';
import { deliverInOrder, holdInboxRows, receiveInboxEvent } from '../../actions/purchase-inbox.js';
import { findPurchaseEvent } from '../../db/purchase-events.js';
import { FAILED_EVENT_ERROR } from '../../workflows/conversion-messages.js';
import { findValidationProviders, type ValidationProviders } from '../../db/apps.js';
import { isStoreDirect, platformOfStore } from '../../lib/validation-providers.js';
import type { ApiDeps, AppContext } from '../context.js';
import type { ApiCaches } from '../sdk-caches.js';

export interface Received {
  received: true;
  event_id: string;
  error?: string;
}

export async function submitPurchaseEvent(
  { deps, caches }: Pick<AppContext, 'deps' | 'caches'>,
  appId: string,
  event: PurchaseEvent,
): Promise<Received> {
  const routing = routeEvent(event);
  if (routing === 'conversion' && (await countedStoreDirect(deps, caches, appId, event))) {
    const out = await recordStandaloneEvent(deps, { appId, event, kind: 'store-direct' });
    return answer(out.eventId, out.error);
  }
  const key = await conversionKeyFor(deps, appId, event);
  if (routing !== 'conversion' || !key) {
    const out = await recordStandaloneEvent(deps, { appId, event, kind: routing === 'conversion' ? 'unkeyed' : routing });
    return answer(out.eventId, out.error);
  }
  const target = { taskQueue: deps.config.TEMPORAL_TASK_QUEUE, appId, conversionKey: key };
  const workflowId = workflowIdOf(target);
  // A database outage here is a 503 like any other (api/middleware/errors.ts): nothing was accepted.
  const receipt = await receiveInboxEvent(deps, { appId, idempotencyKey: idempotencyKey(appId, event), conversionKey: key, event });
  const result = await answerWithin({
    begin: () => deliverInOrder({ db: deps.db, temporal: deps.temporal, taskQueue: target.taskQueue }, receipt),
    late: { detail: 'The purchase is queued but not processed yet; deliver it again.' },
    // Kept in the inbox: the worker's drainer hands it over after a short back-off (also a redelivery would).
    keep: (err) => holdInboxRows(deps, { rows: [receipt.row], error: err instanceof Error ? err.message : String(err) }),
    unavailable: {
      detail: 'Purchase processing is temporarily unavailable; the event is kept and will be processed, or deliver it again.',
      log: 'purchase event not handed to its conversion workflow',
      context: { workflowId },
    },
    logger: deps.logger,
  });
  return answer(
    result.eventId,
    result.error?.startsWith(FAILED_EVENT_ERROR) ? await currentError(deps, result.eventId, result.error) : result.error,
  );
}

/**
 * A redelivery of an event that failed is answered by Temporal with the update's first result (update ids are
 * deduplicated per run), also after an operator re-drove it: the event log says how it stands now.
 */
async function currentError(deps: ApiDeps, eventId: string, recorded: string): Promise<string | null> {
  const row = await findPurchaseEvent(deps.db, eventId);
  return row ? row.error : recorded;
}

/** A provider event of a platform the app validates store-direct: that path counts it (POST /api/sdk/purchase). */
async function countedStoreDirect(deps: ApiDeps, caches: ApiCaches, appId: string, event: PurchaseEvent): Promise<boolean> {
  const platform = event.source === 'subprovider' ? platformOfStore(event.store) : undefined;
  if (!platform) return false;
  const providers = await validationProvidersOf(deps, caches, appId);
  return providers !== null && isStoreDirect(platform, providers);
}

/** The app's validation choice, from the API's change-feed cache when it is live (a switch drops it at once). */
async function validationProvidersOf(deps: ApiDeps, caches: ApiCaches, appId: string): Promise<ValidationProviders | null> {
  return caches.validationProviders.getOrLoad(appId, 'providers', async () => (await findValidationProviders(deps.db, appId)) ?? null);
}

async function conversionKeyFor(deps: ApiDeps, appId: string, event: PurchaseEvent): Promise<string | undefined> {
  if ((isRefund(event) || event.type === 'REFUND_REVERSED') && event.transactionId) {
    const oneTime = await findOneTimeConversionKey(deps.db, appId, event.transactionId);
    if (oneTime) return oneTime;
  }
  return conversionKeyOf(event);
}

function answer(eventId: string, error: string | null): Received {
  return error ? { received: true, event_id: eventId, error } : { received: true, event_id: eventId };
}
