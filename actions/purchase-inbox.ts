// Inbox first (schema 0015): a conversion event is written to the inbox before it is handed to its conversion
// workflow, so an event Temporal cannot take right now waits there instead of being lost. The one owner of an inbox
// row's life (db/purchase-inbox-writes.ts names its transitions): the webhook API receives a row and hands it over at
// once (api/webhooks/submit-event.ts), the worker's drainer claims and hands over what the API could not
// (jobs/inbox-drainer.ts), the operator's retry command re-drives failed events from their stored payload
// (cli/main.ts); the event's own transaction marks it delivered (actions/purchase-event/apply.ts). Callers only
// translate input and output.
import type { WorkflowClient } from '@temporalio/client';
import type { Knex } from 'knex';
import { idempotencyKey, type PurchaseEvent } from '../lib/purchase-event.js';
import { findEarlierWaiting, findInboxEntry } from '../db/purchase-inbox.js';
import {
  claimDueInboxRows,
  inboxHandedOver,
  inboxHandOverFailed,
  lockInboxClaims,
  pruneDeliveredInboxRows,
  receiveIntoInbox,
  type InboxEntry,
  type InboxReceipt,
} from '../db/purchase-inbox-writes.js';
import { findPurchaseEvent, listFailedPurchaseEvents } from '../db/purchase-events.js';
import type { PurchaseInboxRow } from '../schema/types.js';
import type { IngestResult } from '../workflows/conversion-messages.js';
import { ingestIntoConversion, type Redrive } from '../workflow-clients/conversion-ingest.js';

export interface InboxDeps {
  db: Knex;
  temporal: { workflow: WorkflowClient };
  taskQueue: string;
}

export type { InboxReceipt } from '../db/purchase-inbox-writes.js';

/**
 * Records a conversion event in the inbox before anything else sees it, once per app and idempotency key (a
 * redelivery answers the row it has).
 */
export async function receiveInboxEvent(deps: Pick<InboxDeps, 'db'>, entry: InboxEntry): Promise<InboxReceipt> {
  return receiveIntoInbox(deps.db, entry);
}

/**
 * A failed hand-over of `rows[0]` (the API's answer limit passed, the drainer's hand-over failed): it and the later
 * rows of its conversion wait for the drainer's next attempt after a back-off, in order.
 */
export async function holdInboxRows(
  deps: Pick<InboxDeps, 'db'>,
  { rows, error }: { rows: Pick<PurchaseInboxRow, 'id'>[]; error: string },
): Promise<void> {
  await inboxHandOverFailed(deps.db, rows, error);
}

/**
 * Claims up to `limit` due rows for one drainer pass, leased for `leaseSeconds`. Claims are serialised (a
 * transaction-scoped advisory lock) so two drainers never split one conversion between them.
 */
export async function claimInboxRows(
  deps: Pick<InboxDeps, 'db'>,
  { limit, leaseSeconds }: { limit: number; leaseSeconds: number },
): Promise<PurchaseInboxRow[]> {
  return deps.db.transaction(async (trx) => {
    await lockInboxClaims(trx);
    return claimDueInboxRows(trx, limit, leaseSeconds);
  });
}

/** Deletes delivered rows past the retention (never those whose event failed); answers how many went. */
export async function pruneInbox(deps: Pick<InboxDeps, 'db'>, { retentionDays }: { retentionDays: number }): Promise<number> {
  return pruneDeliveredInboxRows(deps.db, retentionDays);
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
export async function redriveFailedEvents(
  deps: InboxDeps,
  { appId, eventId }: { appId: string; eventId?: string },
): Promise<RedriveOutcome[]> {
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
