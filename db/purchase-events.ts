// The purchase event log: every inbound purchase event exactly once (unique on the spec's idempotency key and on
// the provider's event id). Its id is the `event_id` the webhook answers.
import type { Knex } from 'knex';
import { toMicros } from '../lib/money.js';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { PurchaseEventRow } from '../schema/types.js';
import { preparedRaw, preparedRows } from './prepared.js';

/** The columns an event fills (its outcome columns are written by markPurchaseEvent). */
function columnsOf(appId: string, e: PurchaseEvent): Record<string, unknown> {
  return {
    app_id: appId,
    source: e.source,
    provider_event_id: e.providerEventId,
    event_type: e.type,
    transaction_id: e.transactionId,
    original_transaction_id: e.originalTransactionId,
    event_timestamp_ms: e.eventTimestampMs,
    purchased_at: e.purchasedAtMs ? new Date(e.purchasedAtMs) : null,
    expires_at: e.expirationAtMs ? new Date(e.expirationAtMs) : null,
    app_user_id: e.appUserId,
    original_app_user_id: e.originalAppUserId,
    aliases: e.aliases,
    product_id: e.productId,
    new_product_id: e.newProductId,
    period_type: e.periodType,
    store: e.store,
    environment: e.environment,
    is_test: e.environment !== 'PRODUCTION',
    price_usd_micros: e.priceUsd === null ? null : toMicros(e.priceUsd),
    price_in_purchased_currency: e.priceInPurchasedCurrency,
    currency: e.currency,
    fx_rate: e.fx?.usdPerUnit ?? null,
    fx_rate_date: e.fx?.rateDate ?? null,
    fx_source: e.fx?.source ?? null,
    takehome_percentage: e.takehomePercentage,
    cancel_reason: e.cancelReason,
    is_trial_conversion: e.isTrialConversion,
    subscriber_attributes: e.subscriberAttributes,
    raw: e.raw ?? {},
    referral_code: e.referralCode,
  };
}

/** Records the event unless it was recorded before; `inserted` false means a redelivery (answer the original). */
export async function insertPurchaseEvent(
  db: Knex,
  appId: string,
  e: PurchaseEvent,
  receivedAt?: Date,
): Promise<{ row: PurchaseEventRow; inserted: boolean }> {
  const rows = await preparedRows<PurchaseEventRow>(
    db,
    db('purchase_events')
      .insert({ ...columnsOf(appId, e), ...(receivedAt ? { received_at: receivedAt } : {}) })
      .onConflict()
      .ignore()
      .returning('*'),
  );
  if (rows[0]) return { row: rows[0], inserted: true };
  const existing = await db('purchase_events')
    .where('app_id', appId)
    .andWhere((q) => {
      void q
        .where({ event_type: e.type, event_timestamp_ms: e.eventTimestampMs })
        .andWhereRaw('transaction_id is not distinct from ?', [e.transactionId]);
      if (e.providerEventId) void q.orWhere('provider_event_id', e.providerEventId);
    })
    .first<PurchaseEventRow>();
  return { row: existing, inserted: false };
}

export interface EventOutcome {
  status: 'processed' | 'ignored' | 'error';
  error?: string | null;
  conversionId?: string | null;
  attributed?: boolean;
  organic?: boolean;
  referralCode?: string | null;
}

export async function markPurchaseEvent(db: Knex, eventId: string, o: EventOutcome): Promise<void> {
  await db('purchase_events').where('id', eventId).update(outcomeColumns(db, o));
}

/** One named statement of a `with` clause (its writes belong to the statement it is part of). */
export interface WithStatement {
  name: string;
  sql: string;
  bindings: readonly unknown[];
}

/**
 * markPurchaseEvent answering `columns` (scalar subqueries computed in the same statement, which may read the
 * `with` statements' RETURNING), after `ctes`: one round trip for all of it.
 */
export async function markPurchaseEventReturning<T>(
  db: Knex,
  eventId: string,
  o: EventOutcome,
  columns: Knex.Raw[],
  ctes: WithStatement[],
): Promise<T | undefined> {
  const { sql, bindings } = db('purchase_events')
    .where('id', eventId)
    .update(outcomeColumns(db, o))
    .returning(columns as unknown as string[])
    .toSQL();
  const withClause = ctes.length > 0 ? `with ${ctes.map((c) => `${c.name} as (${c.sql})`).join(', ')} ` : '';
  const { rows } = await preparedRaw<T>(db, `${withClause}${sql}`, [...ctes.flatMap((c) => c.bindings), ...bindings] as Knex.RawBinding[]);
  return rows[0];
}

const outcomeColumns = (db: Knex, o: EventOutcome) => ({
  processing_status: o.status,
  error: o.error ?? null,
  conversion_id: o.conversionId ?? null,
  attributed: o.attributed ?? false,
  organic: o.organic ?? false,
  referral_code: o.referralCode ?? null,
  processed_at: db.fn.now(),
});

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

/**
 * A re-driven failed event takes its row back to be applied again (`received`, filled from the full event). Only a
 * row still `failed` is taken, under its row lock: a concurrent re-drive finds it taken and answers as a redelivery.
 */
export async function reclaimFailedPurchaseEvent(
  trx: Knex.Transaction,
  eventId: string,
  appId: string,
  e: PurchaseEvent,
): Promise<PurchaseEventRow | undefined> {
  const [row] = await trx('purchase_events')
    .where({ id: eventId, processing_status: 'failed' })
    .update({ ...columnsOf(appId, e), processing_status: 'received', error: null, processed_at: null })
    .returning<PurchaseEventRow[]>('*');
  return row;
}

/** An event that could not be applied: `failed` with its reason until an operator re-drives it. */
export async function markPurchaseEventFailed(db: Knex, eventId: string, reason: string): Promise<void> {
  await db('purchase_events').where('id', eventId).update({
    processing_status: 'failed',
    error: reason,
    conversion_id: null,
    attributed: false,
    organic: false,
    processed_at: db.fn.now(),
  });
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
 * (activities/purchases/late-attribution.ts). Paid as the purchase activity decides it (a price above 0, no trial, no
 * family-shared App Store transaction: the event's `familyShared` comes from the transaction kept in `raw`); not a
 * period whose latest refund event is a REFUND (a REFUND_REVERSED after it makes it paid again).
 */
export async function listUnearnedPaidPeriods(db: Knex, conversionId: string): Promise<{ id: string; price_usd_micros: number }[]> {
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
    .select<{ id: string; price_usd_micros: string | number }[]>('p.id', 'p.price_usd_micros');
  return rows.map((r) => ({ id: r.id, price_usd_micros: Number(r.price_usd_micros) }));
}

/**
 * A conversion attributed after its events were applied as organic: its events now name the creator's code, the
 * organic error (`organicError`) is cleared, and the reporting user fills the events that had none.
 */
export async function markConversionEventsAttributed(
  db: Knex,
  conversionId: string,
  a: { referralCode: string; appUserId: string | null; organicError: string },
): Promise<void> {
  await db('purchase_events')
    .where('conversion_id', conversionId)
    .update({
      attributed: true,
      organic: false,
      referral_code: a.referralCode,
      error: db.raw('case when error = ? then null else error end', [a.organicError]),
      ...(a.appUserId ? { app_user_id: db.raw('coalesce(app_user_id, ?)', [a.appUserId]) } : {}),
    });
}

/** Replaces the recorded error of the events named (e.g. a late attribution's reason, or a commission left unfunded). */
export async function setPurchaseEventError(
  db: Knex,
  where: { ids: readonly string[] } | { appId: string; event: Pick<PurchaseEvent, 'type' | 'transactionId' | 'eventTimestampMs'> },
  error: string,
  status?: 'error',
): Promise<void> {
  const q = db('purchase_events');
  if ('ids' in where) void q.whereIn('id', where.ids);
  else
    void q
      .where({ app_id: where.appId, event_type: where.event.type, event_timestamp_ms: where.event.eventTimestampMs })
      .andWhereRaw('transaction_id is not distinct from ?', [where.event.transactionId]);
  await q.update({ error, ...(status ? { processing_status: status } : {}) });
}
