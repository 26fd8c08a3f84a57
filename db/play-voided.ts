// Google Play voided purchases (schema 0022), the reads: the apps polled, the poll cursor per Android store-direct app
// and the lookup of what a voided order refunds among the purchases we recorded (writes in db/play-voided-writes.ts).
import type { Knex } from 'knex';
import type { VoidTarget } from '../lib/play-voided.js';
import { STORE_VERIFIER } from '../lib/validation-providers.js';
import type { ConversionKind, Environment } from '../schema/types.js';

/** Apps whose Android purchases are validated store-direct (each has a voided-purchases poll). */
export async function appsOnGooglePlay(db: Knex): Promise<string[]> {
  return db('apps').where('android_validation_provider', STORE_VERIFIER.android).orderBy('id').pluck<string[]>('id');
}

/** Where the previous complete poll ended (ms), null before the first one. */
export async function voidedSyncedUntil(db: Knex, appId: string): Promise<number | null> {
  const row = await db('play_voided_cursors')
    .where('app_id', appId)
    .first<{ synced_until_ms: string | null } | undefined>('synced_until_ms');
  return row?.synced_until_ms ? Number(row.synced_until_ms) : null;
}

const PURCHASE_TYPES = ['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE'];

/** The recorded purchase of `orderId` in the conversion `key` of `kind`, if any. */
async function recordedPurchase(db: Knex, appId: string, kind: ConversionKind, key: string, orderId: string) {
  return db('purchase_events as e')
    .join('conversions as c', 'c.id', 'e.conversion_id')
    .where({ 'c.app_id': appId, 'c.conversion_key': key, 'c.kind': kind, 'e.transaction_id': orderId })
    .whereIn('e.event_type', PURCHASE_TYPES)
    .first<{ environment: Environment; event_timestamp_ms: string } | undefined>('c.environment', 'e.event_timestamp_ms');
}

/**
 * What a voided order refunds: a recorded period of the subscription keyed on its purchase token, else the recorded
 * one-time purchase keyed on its order id; else the reason it matches nothing we recorded.
 */
export async function findVoidTarget(db: Knex, appId: string, purchaseToken: string, orderId: string): Promise<VoidTarget> {
  const period = await recordedPurchase(db, appId, 'subscription', purchaseToken, orderId);
  if (period) return { kind: 'subscription', environment: period.environment };
  const oneTime = await recordedPurchase(db, appId, 'one_time', orderId, orderId);
  if (oneTime) return { kind: 'one_time', environment: oneTime.environment, purchaseTimestampMs: Number(oneTime.event_timestamp_ms) };
  const subscription = await db('conversions').where({ app_id: appId, conversion_key: purchaseToken, kind: 'subscription' }).first('id');
  return {
    kind: 'unknown',
    reason: subscription
      ? `order ${orderId} is not a recorded period of its subscription (that period was never reported): nothing to reverse`
      : `order ${orderId} matches no recorded purchase of this app (never reported through /sdk/purchase): nothing to reverse`,
  };
}
