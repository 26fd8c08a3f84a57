// What a live check of a store credential answers. Errors never carry a secret: they name what to fix. The signing
// of the stores' tokens is the libraries' (clients/apple-app-store.ts, clients/google-play.ts).
import type { StoreCheckStatus } from '../db/store-credentials.js';

/** `error` says what to fix when the check did not pass; `reason` says what passed. */
export type StoreCheckOutcome = { status: StoreCheckStatus; error: string | null; reason?: string };

export interface StoreApiConfig {
  APPLE_API_ROOT?: string;
  GOOGLE_PLAY_API_ROOT: string;
  GOOGLE_TOKEN_URL: string;
}

const timedOut = (err: unknown) =>
  err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout|ETIMEDOUT/i.test(err.message));

export const retryable = (what: string, err: unknown): StoreCheckOutcome => ({
  status: 'retryable',
  error: `${what} unreachable (${timedOut(err) ? 'timeout' : 'network error'}); try again`,
});
