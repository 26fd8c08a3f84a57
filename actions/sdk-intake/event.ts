// An SDK event (POST /sdk/event) recorded once: by the client's event id, by its singleton key (events that happen
// once per user), or, without an id, by identical content within IDENTICAL_EVENT_WINDOW_SECONDS.
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { eventHoldingSingleton, hasEventId, insertSdkEvent, lockIdenticalEvents, recentIdenticalEvent } from '../../db/sdk-events.js';
import { contentHash, IDENTICAL_EVENT_WINDOW_SECONDS, singletonKey, type EventIdentity } from '../../lib/event-dedup.js';

export interface NewSdkEvent extends EventIdentity {
  appId: string;
  eventId: string | null;
  platform: 'ios' | 'android' | 'web' | null;
  ip: string | null;
}

export type DedupReason = 'event_id' | 'singleton' | 'identical_within_60s';
export type EventOutcome = { eventId: string; duplicate: false } | { eventId: string; duplicate: true; reason: DedupReason };

export async function recordSdkEvent(deps: { db: Knex }, e: NewSdkEvent): Promise<EventOutcome> {
  const singleton = singletonKey(e);
  const hash = contentHash(e);
  return deps.db.transaction(async (trx) => {
    if (!e.eventId) {
      await lockIdenticalEvents(trx, e.appId, hash);
      const recent = await recentIdenticalEvent(trx, e.appId, hash, IDENTICAL_EVENT_WINDOW_SECONDS);
      if (recent) return { eventId: recent, duplicate: true, reason: 'identical_within_60s' };
    }
    const eventId = e.eventId ?? randomUUID();
    const inserted = await insertSdkEvent(trx, {
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
    });
    if (inserted) return { eventId, duplicate: false };
    if (await hasEventId(trx, e.appId, eventId)) return { eventId, duplicate: true, reason: 'event_id' };
    return { eventId: await eventHoldingSingleton(trx, e.appId, singleton), duplicate: true, reason: 'singleton' };
  });
}
