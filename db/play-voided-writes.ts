// Google Play voided purchases' writes (reads in db/play-voided.ts): a poll's end on the app's cursor, and a voided
// order with its latest outcome.
import type { Knex } from 'knex';
import type { VoidedEntry } from '../lib/play-voided.js';
import type { ConversionKind } from '../schema/types.js';

/** One poll's end: a complete poll moves the cursor to its end; a failed one keeps it and records the error. */
export async function recordVoidedPoll(db: Knex, appId: string, o: { syncedUntilMs: number } | { error: string }): Promise<void> {
  const moved = 'syncedUntilMs' in o;
  await db('play_voided_cursors')
    .insert({
      app_id: appId,
      synced_until_ms: moved ? o.syncedUntilMs : null,
      polls: 1,
      last_poll_at: db.fn.now(),
      last_error: moved ? null : o.error,
    })
    .onConflict('app_id')
    .merge({
      ...(moved ? { synced_until_ms: o.syncedUntilMs } : {}),
      polls: db.raw('play_voided_cursors.polls + 1'),
      last_poll_at: db.fn.now(),
      last_error: moved ? null : o.error,
      updated_at: db.fn.now(),
    });
}

export interface VoidedOutcome {
  kind: ConversionKind | null;
  outcome: 'refund' | 'ignored';
  reason: string | null;
  purchaseEventId: string | null;
}

/** Keeps a voided order and its latest outcome; seeing it again counts it and updates the outcome. */
export async function recordVoidedPurchase(db: Knex, appId: string, e: VoidedEntry, o: VoidedOutcome): Promise<void> {
  const outcome = { kind: o.kind, outcome: o.outcome, reason: o.reason, purchase_event_id: o.purchaseEventId };
  await db('play_voided_purchases')
    .insert({
      app_id: appId,
      order_id: e.orderId,
      purchase_token: e.purchaseToken,
      voided_time_ms: Number(e.voidedTimeMillis),
      voided_source: e.voidedSource ?? null,
      voided_reason: e.voidedReason ?? null,
      refund_type: e.refundType ?? null,
      voided_quantity: e.voidedQuantity ?? null,
      ...outcome,
    })
    .onConflict(['app_id', 'order_id'])
    .merge({ ...outcome, seen: db.raw('play_voided_purchases.seen + 1'), last_seen_at: db.fn.now() });
}
