// Ids the SDK makes: random UUID v4 (install id, event ids), the derived event id of funnel milestones (rule 5)
// and the iOS account token (rule 7). Random bytes are injected: Hermes has no crypto.getRandomValues without a
// polyfill, and tests pin them.
import { sha256 } from './sha256.js';
import { singletonKey, utf8Bytes } from './event-key.js';

export type RandomBytes = (length: number) => Uint8Array;

/** 16 bytes laid out as a UUID with the given version nibble and the RFC 4122 variant. */
function layout(bytes: Uint8Array, version: number): string {
  const b = Array.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | (version << 4);
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.map((x) => (x < 16 ? '0' : '') + x.toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const fromHex = (hex: string): Uint8Array => new Uint8Array((hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));

export function uuidV4(random: RandomBytes): string {
  return layout(random(16), 4);
}

/**
 * Rule 5: `trial_started`, `subscription_purchased`, `subscription_renewed` get an id derived from event type,
 * user and properties: the server's singleton dedup digest, laid out as a UUID v4, so every retry and every
 * reinstall sends the same id. Null for other event types.
 */
export function derivedEventId(eventType: string, appUserId: string, properties: Record<string, unknown>): string | null {
  const key = singletonKey({ eventType, appUserId, properties });
  return key === null ? null : layout(fromHex(key), 4);
}

/**
 * Rule 7: iOS hosts pass `appAccountToken` to StoreKit; it must be a UUID, stable per user: the SHA-256 of the user
 * id's UTF-8 bytes, its first 16 bytes laid out as a UUID v5 (version nibble 5, RFC 4122 variant).
 */
export function accountToken(appUserId: string): string {
  return layout(sha256(utf8Bytes(appUserId)), 5);
}
