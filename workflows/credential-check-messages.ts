// What the API (and the tool server) share with the credential green-check workflow: id, input, result.
import type { StorePlatform } from '../schema/types.js';

export interface CredentialCheckInput {
  appId: string;
  platform: StorePlatform;
}

export interface CredentialCheckResult {
  platform: StorePlatform;
  /** ok: passed; failed: fix the credential; retryable: the store could not answer (outage, rate limit, timeout). */
  status: 'ok' | 'failed' | 'retryable';
  passed: boolean;
  /** Repeat the check while true. */
  retryable: boolean;
  /** Human-readable: what passed, or what to fix. */
  reason: string;
  /** ISO time the outcome was recorded (validation-status shows the latest). */
  checkedAt: string;
  /**
   * iOS: the green-check asks Apple for a TEST notification; whether it reached POST /api/webhooks/apple/{app_id}
   * within a few seconds (notifications wired). Absent for Android and for a check that failed.
   */
  testNotification?: { requestedAt: string; receivedAt: string | null };
}

export function credentialCheckWorkflowId(appId: string, platform: StorePlatform): string {
  return `credential-check/${appId}/${platform}`;
}
