// The purchase event log's writes (reads in db/purchase-events.ts): recording an event once, its outcome, a failed
// event's reclaim by a re-drive, a late attribution. Called by actions/ (the purchase event's transaction) only.
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
    store_fee_fraction: e.storeFeeFraction ?? null,
    tax_fraction: e.taxFraction ?? null,
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

/** The outcome columns of an event that did not reach its conversion (no release, no status to answer). */
export function noConversionColumns(db: Knex): Knex.Raw {
  return db.raw('null as next_release_at, null as conversion_status');
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
