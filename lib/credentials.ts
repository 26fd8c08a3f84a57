// Credential formats and how they are stored. Every credential is generated with 256 bits of randomness, shown
// once, and stored as a SHA-256 digest (fine for high-entropy tokens; passwords use scrypt in passwords.ts).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SDK_KEY_PREFIX = 'it_';
export const AGENT_KEY_PREFIX = 'it_mcp_';
export const WEBHOOK_SECRET_PREFIX = 'rc_webhook_';
export const PURCHASE_API_KEY_PREFIX = 'it_srv_';
export const SESSION_TOKEN_PREFIX = 'ses_';
/** Creator portal sessions (docs/creator-portal.md): a prefix of their own, so no other resolver ever sees one. */
export const CREATOR_SESSION_PREFIX = 'crs_';

export type CredentialKind = 'agent_key' | 'purchase_api_key' | 'sdk_key' | 'webhook_secret' | 'session' | 'creator_session';

export function generateToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented token with a stored SHA-256 hex digest. */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  const a = Buffer.from(hashToken(token), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Which kind of credential a bearer token is, by its prefix (longest prefix first: agent keys also start `it_`). */
export function credentialKind(token: string): CredentialKind | undefined {
  if (token.startsWith(AGENT_KEY_PREFIX)) return 'agent_key';
  if (token.startsWith(PURCHASE_API_KEY_PREFIX)) return 'purchase_api_key';
  if (token.startsWith(SDK_KEY_PREFIX)) return 'sdk_key';
  if (token.startsWith(WEBHOOK_SECRET_PREFIX)) return 'webhook_secret';
  if (token.startsWith(SESSION_TOKEN_PREFIX)) return 'session';
  if (token.startsWith(CREATOR_SESSION_PREFIX)) return 'creator_session';
  return undefined;
}

/** The first characters of a key, safe to display so a human can tell keys apart. */
export function displayPrefix(token: string): string {
  return `${token.slice(0, token.startsWith(AGENT_KEY_PREFIX) ? 11 : 7)}…`;
}

/**
 * Reads a bearer token the lenient way the webhook spec requires: `Bearer x`, `bearer x`, the bare token, and
 * stray whitespace are all accepted. Returns undefined for an empty header.
 */
export function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^bearer$/i.test(trimmed)) return undefined;
  const match = /^bearer\s+(.+)$/i.exec(trimmed);
  const token = (match ? (match[1] ?? '') : trimmed).trim();
  return token.length > 0 && !/\s/.test(token) ? token : undefined;
}
