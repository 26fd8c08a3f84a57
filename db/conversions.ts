// Conversions: one per store identity (conversion key), written only by its conversion workflow's activity (the
// writes, and the locking reads that precede them, in db/conversions-writes.ts).
import type { Knex } from 'knex';
import type { ConversionRow } from '../schema/types.js';

export async function findConversion(db: Knex, id: string): Promise<ConversionRow | undefined> {
  return db('conversions').where('id', id).first<ConversionRow | undefined>();
}

/** The conversion a workflow id names, as PostgreSQL records it; undefined when it was never created. */
export async function findConversionByKey(db: Knex, appId: string, conversionKey: string): Promise<ConversionRow | undefined> {
  return db('conversions').where({ app_id: appId, conversion_key: conversionKey }).first<ConversionRow | undefined>();
}

/**
 * A refund names the refunded transaction: when that transaction opened a one-time conversion, that is the
 * conversion to refund (its key is the transaction id, whatever original transaction id the event carries).
 */
export async function findOneTimeConversionKey(db: Knex, appId: string, transactionId: string): Promise<string | undefined> {
  const row = await db('conversions')
    .where({ app_id: appId, conversion_key: transactionId, kind: 'one_time' })
    .first<{ conversion_key: string } | undefined>('conversion_key');
  return row?.conversion_key;
}

/** The order ids of the paid periods recorded for a Google Play subscription (its conversion keyed on the purchase token). */
export async function recordedOrdersOfSubscription(db: Knex, appId: string, purchaseToken: string): Promise<string[]> {
  return db('purchase_events as e')
    .join('conversions as c', 'c.id', 'e.conversion_id')
    .where({ 'c.app_id': appId, 'c.conversion_key': purchaseToken, 'c.kind': 'subscription' })
    .whereIn('e.event_type', ['INITIAL_PURCHASE', 'RENEWAL'])
    .whereNotNull('e.transaction_id')
    .distinct()
    .pluck<string[]>('e.transaction_id');
}
