// The purchase event log, read: every inbound purchase event exactly once (unique on the spec's idempotency key and
// on the provider's event id). Its id is the `event_id` the webhook answers. Written in db/purchase-events-writes.ts.
import type { Knex } from 'knex';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { PurchaseEventRow } from '../schema/types.js';

export async function findPurchaseEvent(
  db: Knex,
  eventId: string,
): Promise<(PurchaseEventRow & { transaction_id: string | null; price_usd_micros: number | null }) | undefined> {
  return db('purchase_events').where('id', eventId).first();
}

/** Whether the conversion recorded a purchase (initial, renewal, one-time) of `transactionId`. */
export async function isPurchaseOfConversion(db: Knex, conversionId: string, transactionId: string): Promise<boolean> {
  const row = await db('purchase_events')
    .where({ conversion_id: conversionId, transaction_id: transactionId })
    .whereIn('event_type', ['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE'])
    .first('id');
  return row !== undefined;
}

/** The failed events of an app (or the one named), oldest first: what `svc events retry` re-drives. */
export async function listFailedPurchaseEvents(
  db: Knex,
  appId: string,
  opts: { eventId?: string; limit?: number } = {},
): Promise<PurchaseEventRow[]> {
  const q = db('purchase_events')
    .where({ app_id: appId, processing_status: 'failed' })
    .orderBy('received_at')
    .limit(opts.limit ?? 1000);
  if (opts.eventId) void q.where('id', opts.eventId);
  return q;
}

/** Failed events across all apps (the worker's gauge an operator alerts on). */
export async function countFailedPurchaseEvents(db: Knex): Promise<number> {
  const row = await db('purchase_events').where('processing_status', 'failed').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

/** Whether the event log already holds this event (the spec's idempotency key: app, type, transaction, timestamp). */
export async function hasPurchaseEvent(
  db: Knex,
  appId: string,
  e: Pick<PurchaseEvent, 'type' | 'transactionId' | 'eventTimestampMs'>,
): Promise<boolean> {
  const row = await db('purchase_events')
    .where({ app_id: appId, event_type: e.type, event_timestamp_ms: e.eventTimestampMs })
    .andWhereRaw('transaction_id is not distinct from ?', [e.transactionId])
    .first('id');
  return row !== undefined;
}

/** Subscription state changes whose order the stores' notifications do not keep (arrival order is not trusted). */
const STATE_CHANGE_TYPES = ['CANCELLATION', 'UNCANCELLATION', 'BILLING_ISSUE', 'EXPIRATION', 'PRODUCT_CHANGE'] as const;

/**
 * A state change of the same subscription signed after this one is already recorded: this one is older news (a
 * late delivery, a history copy) and must not undo it.
 */
export async function hasLaterStateChange(
  db: Knex,
  appId: string,
  e: Pick<PurchaseEvent, 'type' | 'originalTransactionId' | 'eventTimestampMs'>,
): Promise<boolean> {
  if (!(STATE_CHANGE_TYPES as readonly string[]).includes(e.type) || !e.originalTransactionId) return false;
  const row = await db('purchase_events')
    .where({ app_id: appId, original_transaction_id: e.originalTransactionId })
    .whereIn('event_type', STATE_CHANGE_TYPES)
    .where('event_timestamp_ms', '>', e.eventTimestampMs)
    .first('id');
  return row !== undefined;
}

const PAID_PERIOD_TYPES = ['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE'];

/**
 * The paid periods a conversion recorded that earned no commission yet, oldest first: what a late attribution earns
 * (actions/purchase-event/late-attribution.ts). Paid as the purchase activity decides it (a price above 0, no trial, no
 * family-shared App Store transaction: the event's `familyShared` comes from the transaction kept in `raw`); not a
 * period whose latest refund event is a REFUND (a REFUND_REVERSED after it makes it paid again).
 */
/** A paid period not earned yet, with what its commission's basis reads of it (actions/purchase-event/earn.ts). */
export type UnearnedPaidPeriod = Pick<
  PurchaseEventRow,
  'id' | 'store' | 'purchased_at' | 'expires_at' | 'event_timestamp_ms' | 'store_fee_fraction' | 'tax_fraction' | 'raw'
> & { price_usd_micros: number };

export async function listUnearnedPaidPeriods(db: Knex, conversionId: string): Promise<UnearnedPaidPeriod[]> {
  const rows = await db('purchase_events as p')
    .where({ 'p.conversion_id': conversionId, 'p.processing_status': 'processed' })
    .whereIn('p.event_type', PAID_PERIOD_TYPES)
    .where('p.price_usd_micros', '>', 0)
    .whereRaw("p.period_type is distinct from 'TRIAL'")
    .whereRaw("coalesce(p.raw #>> '{app_store_transaction,inAppOwnershipType}', '') <> 'FAMILY_SHARED'")
    .whereNotExists((q) => {
      void q.select(db.raw('1')).from('commissions as c').whereRaw('c.purchase_event_id = p.id').where('c.kind', 'earn');
    })
    .whereRaw(
      `coalesce((select r.event_type from purchase_events r
      where r.conversion_id = p.conversion_id and r.transaction_id = p.transaction_id and r.event_type in ('REFUND', 'REFUND_REVERSED')
        and r.processing_status = 'processed'
      order by r.event_timestamp_ms desc, r.received_at desc limit 1), '') <> 'REFUND'`,
    )
    .orderBy([{ column: 'p.event_timestamp_ms' }, { column: 'p.received_at' }])
    .select<(UnearnedPaidPeriod & { price_usd_micros: string | number })[]>(
      'p.id',
      'p.price_usd_micros',
      'p.store',
      'p.purchased_at',
      'p.expires_at',
      'p.event_timestamp_ms',
      'p.store_fee_fraction',
      'p.tax_fraction',
      'p.raw',
    );
  return rows.map((r) => ({ ...r, price_usd_micros: Number(r.price_usd_micros) }));
}
