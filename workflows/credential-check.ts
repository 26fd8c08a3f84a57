// The store credential green-check, `credential-check/{app_id}/{platform}`: one activity authenticates to the store
// with the stored credential, makes one real call and records the outcome (store_credentials.check_*). Callers
// start it with conflict policy USE_EXISTING, so a check already running is joined rather than repeated. Store
// outcomes (pass, fail, retryable) are results; only faults of our own (database) are retried.
import { proxyActivities } from '@temporalio/workflow';
import type { createStoreDirectActivities } from '../activities/store-direct/index.js';
import type { CredentialCheckInput, CredentialCheckResult } from './credential-check-messages.js';

const { checkStoreCredential } = proxyActivities<ReturnType<typeof createStoreDirectActivities>>({
  // Above the store call's own timeout (10 s per call, two calls for Google).
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export async function credentialCheckWorkflow(input: CredentialCheckInput): Promise<CredentialCheckResult> {
  return checkStoreCredential(input);
}
