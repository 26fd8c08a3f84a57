// Custom funnel events. They never create conversions; they are evidence for the setup checklist and analytics.
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { contentHash, IDENTICAL_EVENT_WINDOW_SECONDS, singletonKey, type EventIdentity } from '../lib/event-dedup.js';

export interface NewSdkEvent extends EventIdentity {
  appId: string;
  eventId: string | null;
  platform: 'ios' | 'android' | 'web' | null;
  ip: string | null;
}

export type DedupReason = 'event_id' | 'singleton' | 'identical_within_60s';
export type EventOutcome = { eventId: string; duplicate: false } | { eventId: string; duplicate: true; reason: DedupReason };

export async function recordSdkEvent(db: Knex, e: NewSdkEvent): Promise<EventOutcome> {
  const singleton = singletonKey(e);
  const hash = contentHash(e);
  return db.transaction(async (trx) => {
    if (!e.eventId) {
      // Serialises identical id-less events so two concurrent copies cannot both pass the window check.
      await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${e.appId}:${hash}`]);
      const recent = await trx('sdk_events')
        .where({ app_id: e.appId, content_hash: hash })
        .where('created_at', '>', trx.raw('now() - make_interval(secs => ?)', [IDENTICAL_EVENT_WINDOW_SECONDS]))
        .orderBy('created_at', 'desc')
        .first<{ event_id: string } | undefined>('event_id');
      if (recent) return { eventId: recent.event_id, duplicate: true, reason: 'identical_within_60s' };
    }
    const eventId = e.eventId ?? randomUUID();
    const inserted = await trx('sdk_events')
      .insert({
        app_id: e.appId,
        event_id: eventId,
        event_type: e.eventType,
        app_user_id: e.appUserId,
        properties: e.properties,
        referral_code: e.referralCode,
        platform: e.platform,
        singleton_key: singleton,
        content_hash: hash,
        ip: e.ip,
      })
      .onConflict()
      .ignore()
      .returning('id');
    if (inserted.length === 1) return { eventId, duplicate: false };
    const sameId = await trx('sdk_events').where({ app_id: e.appId, event_id: eventId }).first('event_id');
    if (sameId) return { eventId, duplicate: true, reason: 'event_id' };
    const first = await trx('sdk_events').where({ app_id: e.appId, singleton_key: singleton }).first<{ event_id: string }>('event_id');
    return { eventId: first.event_id, duplicate: true, reason: 'singleton' };
  });
}
