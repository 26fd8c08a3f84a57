// The green-check of a stored store credential: authenticate with it and make one real call (Apple: request a
// test notification; Google: a token, then the app's reviews), then record the outcome on the credential. Store
// answers are results (pass, fail with what to fix, retryable for outages, rate limits and timeouts).
import { checkAppleKey } from '../../clients/apple-app-store.js';
import { checkGoogleServiceAccount } from '../../clients/google-play.js';
import type { StoreCheckOutcome } from '../../clients/store-check.js';
import { loadCredentialForCheck, recordCredentialCheck } from '../../db/store-credentials.js';
import type { CredentialCheckInput, CredentialCheckResult } from '../../workflows/credential-check-messages.js';
import type { StoreDirectContext } from './context.js';

const STORE_CALL_TIMEOUT_MS = 10_000;

export function credentialCheckActivities(ctx: StoreDirectContext) {
  return {
    async checkStoreCredential({ appId, platform }: CredentialCheckInput): Promise<CredentialCheckResult> {
      const box = ctx.secretBox();
      const stored = box ? await loadCredentialForCheck(ctx.db, box, appId, platform) : undefined;
      if (!box || !stored) {
        const reason = box ? `No ${platform} store credential was uploaded` : 'The server cannot read stored credentials (SVC_MASTER_KEY is not configured)';
        return { platform, status: 'failed', passed: false, retryable: false, reason, checkedAt: new Date().toISOString() };
      }
      const outcome: StoreCheckOutcome = stored.secret === null
        ? { status: 'failed', error: 'The stored credential cannot be decrypted: upload it again' }
        : platform === 'ios' ? await checkAppleKey(ctx.config, stored.secret, stored.meta, STORE_CALL_TIMEOUT_MS)
          : await checkGoogleServiceAccount(ctx.config, stored.secret, stored.meta, STORE_CALL_TIMEOUT_MS);
      const checkedAt = await recordCredentialCheck(ctx.db, appId, platform, outcome.status, outcome.error);
      return {
        platform, status: outcome.status, passed: outcome.status === 'ok', retryable: outcome.status === 'retryable',
        reason: outcome.error ?? outcome.reason ?? 'The store accepted the credential', checkedAt: checkedAt.toISOString(),
      };
    },
  };
}
