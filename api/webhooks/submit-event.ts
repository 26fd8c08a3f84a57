// Hands a purchase event to its conversion workflow with update-with-start (DESIGN.md "Temporal") and waits for the
// update's result so the webhook answer can carry `event_id` and a processing `error`. Events that belong to no
// conversion are recorded directly, and so are provider events of a platform validated store-direct (recorded with
// the reason, never counted: the store-direct report counts that purchase).
import { recordStandaloneEvent } from './standalone-events.js';
import { AppError, UnavailableError } from '../../lib/errors.js';
import { conversionKeyOf, isRefund, routeEvent, type PurchaseEvent } from '../../lib/purchase-event.js';
import { ingestIntoConversion, workflowIdOf } from '../../workflow-clients/conversion-ingest.js';
import { findOneTimeConversionKey } from '../../db/conversions.js';
import { findValidationProviders } from '../../db/apps.js';
import { isStoreDirect, platformOfStore } from '../../lib/validation-providers.js';
import type { ApiDeps } from '../context.js';

/** Well inside the provider's 30 s webhook timeout; past it the provider redelivers and the update id dedups. */
const ANSWER_WITHIN_MS = 25_000;

export interface Received { received: true; event_id: string; error?: string }

export async function submitPurchaseEvent(deps: ApiDeps, appId: string, event: PurchaseEvent): Promise<Received> {
  const routing = routeEvent(event);
  if (routing === 'conversion' && (await countedStoreDirect(deps, appId, event))) {
    const out = await recordStandaloneEvent(deps.db, appId, event, 'store-direct');
    return answer(out.eventId, out.error);
  }
  const key = await conversionKeyFor(deps, appId, event);
  if (routing !== 'conversion' || !key) {
    const out = await recordStandaloneEvent(deps.db, appId, event, routing === 'conversion' ? 'unkeyed' : routing);
    return answer(out.eventId, out.error);
  }
  const target = { taskQueue: deps.config.TEMPORAL_TASK_QUEUE, appId, conversionKey: key };
  const workflowId = workflowIdOf(target);
  const update = ingestIntoConversion(deps.temporal, target, event);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnavailableError('The purchase is queued but not processed yet; deliver it again.', 5)), ANSWER_WITHIN_MS);
  });
  try {
    const result = await Promise.race([update, deadline]);
    return answer(result.eventId, result.error);
  } catch (err) {
    if (err instanceof AppError) throw err;
    deps.logger.error({ err, workflowId }, 'purchase event not handed to its conversion workflow');
    throw new UnavailableError('Purchase processing is temporarily unavailable; deliver the event again.', 5);
  } finally {
    clearTimeout(timer);
    update.catch(() => undefined);
  }
}

/** A provider event of a platform the app validates store-direct: that path counts it (POST /api/sdk/purchase). */
async function countedStoreDirect(deps: ApiDeps, appId: string, event: PurchaseEvent): Promise<boolean> {
  const platform = event.source === 'subprovider' ? platformOfStore(event.store) : undefined;
  if (!platform) return false;
  const providers = await findValidationProviders(deps.db, appId);
  return providers !== undefined && isStoreDirect(platform, providers);
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
