// What a live check of a store credential answers, and the JWT signing both stores' server APIs need. Errors never
// carry a secret: they name what to fix.
import { sign, type KeyObject } from 'node:crypto';
import type { StoreCheckStatus } from '../db/store-credentials.js';

export type StoreCheckOutcome = { status: StoreCheckStatus; error: string | null };

export interface StoreApiConfig { APPLE_API_ROOT?: string; GOOGLE_PLAY_API_ROOT: string; GOOGLE_TOKEN_URL: string }

const b64url = (v: Buffer | string) => Buffer.from(v).toString('base64url');

export function signJwt(alg: 'ES256' | 'RS256', key: KeyObject, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const input = `${b64url(JSON.stringify({ alg, ...header }))}.${b64url(JSON.stringify(payload))}`;
  const signature = alg === 'ES256'
    ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
    : sign('sha256', Buffer.from(input), key);
  return `${input}.${b64url(signature)}`;
}

export const retryable = (what: string, err: unknown): StoreCheckOutcome => ({
  status: 'retryable',
  error: `${what} unreachable (${err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network error'}); try again`,
});

export const withRoot = (root: string) => (root.endsWith('/') ? root : `${root}/`);
