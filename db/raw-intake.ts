// Raw intake (schema 0027): verified items kept as received, once per (app, source, external id), until a workflow
// normalises them into purchase events. This module owns the table; the purchase inbox (db/purchase-inbox.ts)
// keeps what is normalised already.
import type { Knex } from 'knex';
import type { JsonObject, RawIntakeRow } from '../schema/types.js';

export interface RawItem {
  appId: string;
  source: string;
  externalId: string;
  payload: JsonObject;
}

/**
 * Keeps the item unless it is kept already (a redelivery: its first payload stays, what was verified first is
 * what gets normalised); either way answers its row and whether it was new.
 */
export async function receiveRawItem(db: Knex, item: RawItem): Promise<{ row: RawIntakeRow; inserted: boolean }> {
  const key = { app_id: item.appId, source: item.source, external_id: item.externalId };
  const [row] = await db('raw_intake')
    .insert({ ...key, payload: JSON.stringify(item.payload) })
    .onConflict(['app_id', 'source', 'external_id'])
    .ignore()
    .returning<RawIntakeRow[]>('*');
  if (row) return { row, inserted: true };
  return { row: await db('raw_intake').where(key).first<RawIntakeRow>(), inserted: false };
}

export async function findRawItem(db: Knex, appId: string, source: string, externalId: string): Promise<RawIntakeRow | undefined> {
  return db('raw_intake').where({ app_id: appId, source, external_id: externalId }).first<RawIntakeRow | undefined>();
}

/** The item's events were handed to the pipeline (or it needed none): it is normalised; the first time stays. */
export async function markRawItemNormalised(db: Knex, appId: string, source: string, externalId: string): Promise<void> {
  await db('raw_intake')
    .where({ app_id: appId, source, external_id: externalId })
    .whereNull('normalised_at')
    .update({ normalised_at: db.fn.now() });
}

/** External ids of the app's items of `source` taken in before `before` and still not normalised (oldest first, at most `limit`). */
export async function pendingRawItems(db: Knex, appId: string, source: string, before: Date, limit = 500): Promise<string[]> {
  return db('raw_intake')
    .where({ app_id: appId, source })
    .whereNull('normalised_at')
    .where('received_at', '<', before)
    .orderBy('received_at')
    .limit(limit)
    .pluck<string[]>('external_id');
}
