// Custom funnel events' statements (the recording rule is actions/sdk-intake/event.ts). They never create
// conversions; they are evidence for the setup checklist and analytics.
import type { Knex } from 'knex';

export interface SdkEventRow {
  app_id: string;
  event_id: string;
  event_type: string;
  app_user_id: string;
  properties: Record<string, unknown>;
  referral_code: string | null;
  platform: 'ios' | 'android' | 'web' | null;
  singleton_key: string | null;
  content_hash: string;
  ip: string | null;
}

/** Serialises identical id-less events so two concurrent copies cannot both pass the window check. */
export async function lockIdenticalEvents(trx: Knex.Transaction, appId: string, hash: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${appId}:${hash}`]);
}

/** The newest event with this content recorded within the last `seconds`. */
export async function recentIdenticalEvent(db: Knex, appId: string, hash: string, seconds: number): Promise<string | undefined> {
  const recent = await db('sdk_events')
    .where({ app_id: appId, content_hash: hash })
    .where('created_at', '>', db.raw('now() - make_interval(secs => ?)', [seconds]))
    .orderBy('created_at', 'desc')
    .first<{ event_id: string } | undefined>('event_id');
  return recent?.event_id;
}

/** False when the event id or the singleton key is already taken (nothing written). */
export async function insertSdkEvent(db: Knex, row: SdkEventRow): Promise<boolean> {
  const inserted = await db('sdk_events').insert(row).onConflict().ignore().returning('id');
  return inserted.length === 1;
}

export async function hasEventId(db: Knex, appId: string, eventId: string): Promise<boolean> {
  return (await db('sdk_events').where({ app_id: appId, event_id: eventId }).first('event_id')) !== undefined;
}

export async function eventHoldingSingleton(db: Knex, appId: string, singleton: string | null): Promise<string> {
  const first = await db('sdk_events').where({ app_id: appId, singleton_key: singleton }).first<{ event_id: string }>('event_id');
  return first.event_id;
}
