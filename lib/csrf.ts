// CSRF tokens for the dashboard (session cookie) surface: an HMAC of what the token is bound to (the session's
// digest once signed in, a pre-session cookie on the login form), so nothing needs storing and a token minted for
// one session is worthless for another.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The HMAC key: derived from SVC_MASTER_KEY when set (every API process agrees), else random per process. */
export function csrfKey(masterKey: string | undefined): Buffer {
  if (!masterKey) return randomBytes(32);
  return createHmac('sha256', masterKey).update('svc csrf v1').digest();
}

export function csrfToken(key: Buffer, binding: string): string {
  return createHmac('sha256', key).update(binding).digest('base64url');
}

export function csrfMatches(key: Buffer, binding: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const expected = Buffer.from(csrfToken(key, binding));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
