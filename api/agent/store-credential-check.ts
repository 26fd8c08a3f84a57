// The live green-check of a stored store credential (store-direct validation): one call to the store with the
// uploaded key, and the outcome recorded in store_credentials (check_status, checked_at, check_attempts + 1,
// last_error). 'retryable' means the store could not answer (5xx, timeout, network): repeat the check later.
// Runs inside the API request with a 10 s timeout per store call (a Temporal workflow
// `credential-check/{app_id}/{platform}` is the design's intent; not wrapped yet).
import type { Knex } from 'knex';
import { checkAppleKey } from '../../clients/apple-app-store.js';
import { checkGoogleServiceAccount } from '../../clients/google-play.js';
import type { StoreApiConfig, StoreCheckOutcome } from '../../clients/store-check.js';
import { loadCredentialForCheck, recordCredentialCheck, type StoreCheckStatus } from '../../db/store-credentials.js';
import type { SecretBox } from '../../lib/secret-box.js';

export interface StoreCheckDeps { db: Knex; box: SecretBox; config: StoreApiConfig; timeoutMs?: number }

export interface StoreCheckResult { status: StoreCheckStatus; checked_at: Date; error: string | null }

/** One live check of the app's stored credential for the platform; undefined when none was uploaded. */
export async function checkStoreCredentials(deps: StoreCheckDeps, appId: string, platform: 'ios' | 'android'): Promise<StoreCheckResult | undefined> {
  const stored = await loadCredentialForCheck(deps.db, deps.box, appId, platform);
  if (!stored) return undefined;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const outcome: StoreCheckOutcome = stored.secret === null
    ? { status: 'failed', error: 'The stored credential cannot be decrypted: upload it again' }
    : platform === 'ios' ? await checkAppleKey(deps.config, stored.secret, stored.meta, timeoutMs)
      : await checkGoogleServiceAccount(deps.config, stored.secret, stored.meta, timeoutMs);
  const checkedAt = await recordCredentialCheck(deps.db, appId, platform, outcome.status, outcome.error);
  return { status: outcome.status, checked_at: checkedAt, error: outcome.error };
}
