// Dedup keys of SDK events (spec "/sdk/event"): funnel milestones are kept once per user and property set; any
// event without an event_id is dropped when an identical one arrived within 60 seconds.
import { createHash } from 'node:crypto';

export const SINGLETON_EVENT_TYPES = new Set(['trial_started', 'subscription_purchased', 'subscription_renewed']);
export const IDENTICAL_EVENT_WINDOW_SECONDS = 60;

/** JSON with object keys sorted at every level, so equal property sets hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const digest = (parts: unknown[]) => createHash('sha256').update(canonicalJson(parts)).digest('hex');

export interface EventIdentity { eventType: string; appUserId: string; properties: Record<string, unknown>; referralCode: string | null }

export function singletonKey(e: EventIdentity): string | null {
  return SINGLETON_EVENT_TYPES.has(e.eventType) ? digest(['singleton', e.eventType, e.appUserId, e.properties]) : null;
}

export function contentHash(e: EventIdentity): string {
  return digest(['content', e.eventType, e.appUserId, e.properties, e.referralCode]);
}
