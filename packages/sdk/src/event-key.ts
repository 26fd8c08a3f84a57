// The dedup keys of SDK events, shared by the server (lib/event-dedup.ts) and the SDK (derived event ids, rule 5):
// pure and I/O-free, so both sides hash exactly the same bytes. Funnel milestones (`trial_started`,
// `subscription_purchased`, `subscription_renewed`) are kept once per user and canonical property set; the server
// also drops an event without event_id identical to one within 60 seconds. Pinned by golden vectors
// (test/unit/sdk-event-key.test.ts): changing a byte here changes every stored key.
import { sha256 } from './sha256.js';

export const SINGLETON_EVENT_TYPES: ReadonlySet<string> = new Set(['trial_started', 'subscription_purchased', 'subscription_renewed']);

/** JSON with object keys sorted at every level, so equal property sets hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** UTF-8 bytes without TextEncoder (missing in older Hermes builds); lone surrogates become U+FFFD as TextEncoder does. */
export function utf8Bytes(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    // by code point: a surrogate pair is one character, a lone surrogate one of its own
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += (b < 16 ? '0' : '') + b.toString(16);
  return hex;
}

/** SHA-256 of a string's UTF-8 bytes, as lowercase hex. */
export function sha256Hex(text: string): string {
  return toHex(sha256(utf8Bytes(text)));
}

const digest = (parts: unknown[]): string => sha256Hex(canonicalJson(parts));

export interface EventIdentity {
  eventType: string;
  appUserId: string;
  properties: Record<string, unknown>;
  referralCode: string | null;
}

/** The once-per-user-and-properties key of a funnel milestone; null for every other event type. */
export function singletonKey(e: Omit<EventIdentity, 'referralCode'>): string | null {
  return SINGLETON_EVENT_TYPES.has(e.eventType) ? digest(['singleton', e.eventType, e.appUserId, e.properties]) : null;
}

/** The key of "an identical event" (same type, user, properties and code). */
export function contentHash(e: EventIdentity): string {
  return digest(['content', e.eventType, e.appUserId, e.properties, e.referralCode]);
}
