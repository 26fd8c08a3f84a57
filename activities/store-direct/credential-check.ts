// The green-check of a stored store credential: authenticate with it and make one real call (Apple: request a
// test notification; Google: a token, then the app's reviews), then record the outcome on the credential. Store
// answers are results (pass, fail with what to fix, retryable for outages, rate limits and timeouts).
import { sleep } from '@temporalio/activity';
import { checkAppleKey } from '../../clients/apple-app-store.js';
import { checkGoogleServiceAccount } from '../../clients/google-play.js';
import type { StoreCheckOutcome } from '../../clients/store-check.js';
import { loadCredentialForCheck } from '../../db/store-credentials.js';
import { recordCredentialCheck } from '../../db/store-credentials-writes.js';
import { NOTIFICATION_SOURCES, notificationState } from '../../db/store-notifications.js';
import { recordTestRequested } from '../../db/store-notifications-writes.js';
import type { CredentialCheckInput, CredentialCheckResult } from '../../workflows/credential-check-messages.js';
import type { StoreDirectContext } from './context.js';

const STORE_CALL_TIMEOUT_MS = 10_000;
/** How long the check looks for Apple's TEST notification after asking for it (Apple sends it within seconds). */
const TEST_NOTIFICATION_WAIT_MS = 5_000;

export function credentialCheckActivities(ctx: StoreDirectContext) {
  return {
    async checkStoreCredential({ appId, platform }: CredentialCheckInput): Promise<CredentialCheckResult> {
      const box = ctx.secretBox();
      const stored = box ? await loadCredentialForCheck(ctx.db, box, appId, platform) : undefined;
      if (!box || !stored) {
        const reason = box
          ? `No ${platform} store credential was uploaded`
          : 'The server cannot read stored credentials (SVC_MASTER_KEY is not configured)';
        return { platform, status: 'failed', passed: false, retryable: false, reason, checkedAt: new Date().toISOString() };
      }
      // Asked before the call: Apple's TEST notification may arrive before the call returns.
      const testRequestedAt =
        platform === 'ios' && stored.secret !== null ? await recordTestRequested(ctx.db, appId, NOTIFICATION_SOURCES.ios) : undefined;
      const outcome: StoreCheckOutcome =
        stored.secret === null
          ? { status: 'failed', error: 'The stored credential cannot be decrypted: upload it again' }
          : platform === 'ios'
            ? await checkAppleKey(ctx.config, stored.secret, stored.meta, STORE_CALL_TIMEOUT_MS)
            : await checkGoogleServiceAccount(ctx.config, stored.secret, stored.meta, STORE_CALL_TIMEOUT_MS);
      const checkedAt = await recordCredentialCheck(ctx.db, appId, platform, outcome.status, outcome.error);
      const reason = outcome.error ?? outcome.reason ?? 'The store accepted the credential';
      const result: CredentialCheckResult = {
        platform,
        status: outcome.status,
        passed: outcome.status === 'ok',
        retryable: outcome.status === 'retryable',
        reason,
        checkedAt: checkedAt.toISOString(),
      };
      if (outcome.status !== 'ok' || !testRequestedAt) return result;
      const receivedAt = await testNotificationArrival(ctx, appId, testRequestedAt);
      const url = `${ctx.config.BASE_URL}/api/webhooks/apple/${appId}`;
      const missing =
        `it has not arrived (yet): set the App Store Server ` +
        `Notifications V2 URL (production and sandbox) in App Store Connect to ${url}`;
      return {
        ...result,
        testNotification: { requestedAt: testRequestedAt.toISOString(), receivedAt: receivedAt?.toISOString() ?? null },
        reason: `${reason}; ${receivedAt ? `it arrived at ${url}` : missing}`,
      };
    },
  };
}

/** When the TEST notification asked for at `requestedAt` arrived, looked for a few seconds; null if it did not. */
async function testNotificationArrival(ctx: StoreDirectContext, appId: string, requestedAt: Date): Promise<Date | null> {
  const until = Date.now() + TEST_NOTIFICATION_WAIT_MS;
  for (;;) {
    const received = (await notificationState(ctx.db, appId, NOTIFICATION_SOURCES.ios))?.test_received_at ?? null;
    if (received && received >= requestedAt) return received;
    if (Date.now() >= until) return null;
    await sleep(250);
  }
}
