// Inbox first (schema 0015): a conversion event is written to the inbox before it is handed to its conversion
// workflow, so an event Temporal cannot take right now waits there instead of being lost. Shared by the webhook
// API (hands a new event over at once), the worker's drainer (hands over what the API could not) and the
// operator's retry command (re-drives failed events from their stored payload).
import type { WorkflowClient } from '@temporalio/client';
import type { Knex } from 'knex';
import { idempotencyKey, type PurchaseEvent } from '../lib/purchase-event.js';
import { findEarlierWaiting, findInboxEntry, inboxHandedOver, type InboxReceipt } from '../db/purchase-inbox.js';
import { findPurchaseEvent, listFailedPurchaseEvents } from '../db/purchase-events.js';
import type { PurchaseInboxRow } from '../schema/types.js';
import type { IngestResult } from '../workflows/conversion-messages.js';
import { ingestIntoConversion, type Redrive } from './conversion-ingest.js';

export interface InboxDeps {
  db: Knex;
  temporal: { workflow: WorkflowClient };
  taskQueue: string;
}

function inboxEvent(row: Pick<PurchaseInboxRow, 'event'>): PurchaseEvent {
  return row.event as unknown as PurchaseEvent;
}

/**
 * Hands one inbox row to its conversion workflow and marks it delivered with the result, also when the caller has
 * stopped waiting (a late result still marks the row, so the drainer does not hand it over again needlessly).
 */
export async function deliverInboxRow(deps: InboxDeps, row: PurchaseInboxRow, redrive?: Redrive): Promise<IngestResult> {
  const result = await ingestIntoConversion(
    deps.temporal,
    { taskQueue: deps.taskQueue, appId: row.app_id, conversionKey: row.conversion_key },
    inboxEvent(row),
    redrive,
  );
  // The event is applied whatever happens to this mark: a row left waiting is handed over again later and answered
  // as the redelivery it is.
  await inboxHandedOver(deps.db, row, result).catch(() => undefined);
  return result;
}

/**
 * Hands the row over after the events of its conversion that arrived earlier and still wait (Temporal was away
 * when they came): a conversion's events are applied in arrival order even when the provider's retry of an
 * older event comes after a newer one. Fails as soon as one hand-over fails, leaving the rest waiting in order.
 * The receipt (receiveIntoInbox) says whether an earlier event may wait (read with the insert: almost never).
 */
export async function deliverInOrder(deps: InboxDeps, { row, waitsBehind }: InboxReceipt): Promise<IngestResult> {
  if (waitsBehind) {
    for (const earlier of await findEarlierWaiting(deps.db, row)) await deliverInboxRow(deps, earlier);
  }
  return deliverInboxRow(deps, row);
}

export interface RedriveOutcome {
  event_id: string;
  event_type: string;
  /** The event's processing status afterwards (`processed`, `error` for a business error, `failed` again...). */
  status: string;
  error: string | null;
  retried: boolean;
}

/**
 * Re-drives an app's failed events (or the one named), oldest first, from their stored inbox payload: each goes to
 * its conversion workflow as a re-drive (applied again, not answered from memory) under an update id of its own.
 * An event that never came through the inbox (recorded before it existed) cannot be re-driven from here.
 */
export async function redriveFailedEvents(deps: InboxDeps, appId: string, eventId?: string): Promise<RedriveOutcome[]> {
  const outcomes: RedriveOutcome[] = [];
  for (const failed of await listFailedPurchaseEvents(deps.db, appId, { eventId })) {
    const key = idempotencyKey(appId, {
      type: failed.event_type,
      transactionId: failed.transaction_id,
      eventTimestampMs: failed.event_timestamp_ms,
    });
    const entry = await findInboxEntry(deps.db, appId, key);
    if (!entry) {
      outcomes.push({
        event_id: failed.id,
        event_type: failed.event_type,
        status: 'failed',
        error: 'no stored payload (not received through the inbox): deliver it again',
        retried: false,
      });
      continue;
    }
    const result = await deliverInboxRow(deps, entry, { updateId: `${key}:redrive:${failed.id}:${Date.now()}` });
    const after = await findPurchaseEvent(deps.db, result.eventId);
    outcomes.push({
      event_id: failed.id,
      event_type: failed.event_type,
      status: after?.processing_status ?? 'unknown',
      error: result.error,
      retried: true,
    });
  }
  return outcomes;
}
