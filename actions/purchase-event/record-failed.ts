// An event the conversion workflow gave up applying is still recorded, so a redelivery answers the same and the
// conversion goes on with its next event: refused data (classes 22/23) keeps only the event's identity; an event that
// failed for good after its attempts (activities/purchases/failures.ts) keeps the full event when the database
// takes it, with its reason, until `svc events retry` re-drives it (actions/purchase-inbox.ts).
import type { Knex } from 'knex';
import { isRefusedData } from '../../errors/pg-errors.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { findConversion } from '../../db/conversions.js';
import { insertPurchaseEvent, markPurchaseEvent, markPurchaseEventFailed } from '../../db/purchase-events-writes.js';
import { FAILED_EVENT_ERROR, type FailedIngest, type IngestEvent, type IngestResult } from '../../workflows/conversion-messages.js';
import { identityOnly } from './identity.js';

export const REJECTED_EVENT = 'event could not be processed: invalid data';

/**
 * Records an event that applyPurchaseEvent refused for good, so a redelivery answers the same. Only its identity is
 * kept (whatever the database refused is dropped), cleaned of what text columns cannot hold.
 */
export async function recordRejectedPurchaseEvent(deps: { db: Knex }, ingest: IngestEvent): Promise<IngestResult> {
  return deps.db.transaction(async (trx) => {
    const { row, inserted } = await insertPurchaseEvent(trx, ingest.appId, identityOnly(ingest.event));
    if (inserted) await markPurchaseEvent(trx, row.id, { status: 'error', error: REJECTED_EVENT });
    return {
      eventId: row.id,
      error: inserted ? REJECTED_EVENT : row.error,
      duplicate: !inserted,
      conversionId: row.conversion_id,
      status: null,
      referralCode: null,
    };
  });
}

/**
 * Records an event the apply activity gave up on as `failed` with its reason. The full event is kept when the
 * database takes it (the operator sees what arrived); its identity only when not. A re-drive that failed again
 * updates the reason. `failed` false: a concurrent attempt applied it after all, and the answer is that.
 */
export async function recordFailedPurchaseEvent(
  deps: { db: Knex },
  { ingest, reason }: FailedIngest,
): Promise<{ failed: boolean; answer: IngestResult }> {
  const error = `${FAILED_EVENT_ERROR}: ${reason}`;
  return deps.db.transaction(async (trx) => {
    const { row, inserted } = await insertFullOrIdentity(trx, ingest.appId, ingest.event);
    if (!inserted && row.processing_status !== 'failed') {
      const c = row.conversion_id ? await findConversion(trx, row.conversion_id) : undefined;
      return {
        failed: false,
        answer: {
          eventId: row.id,
          error: row.error,
          duplicate: true,
          conversionId: row.conversion_id,
          status: c?.status ?? null,
          referralCode: c?.referral_code ?? row.referral_code,
        },
      };
    }
    await markPurchaseEventFailed(trx, row.id, error);
    return { failed: true, answer: { eventId: row.id, error, duplicate: false, conversionId: null, status: null, referralCode: null } };
  });
}

async function insertFullOrIdentity(trx: Knex.Transaction, appId: string, e: PurchaseEvent) {
  try {
    return await trx.transaction((sp) => insertPurchaseEvent(sp, appId, e));
  } catch (err) {
    if (!isRefusedData(err)) throw err;
    return insertPurchaseEvent(trx, appId, identityOnly(e));
  }
}
