// What the API (and the tool server) share with the credential green-check workflow: id, input, result.
import type { StorePlatform } from '../schema/types.js';

export interface CredentialCheckInput { appId: string; platform: StorePlatform }

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
}

export function credentialCheckWorkflowId(appId: string, platform: StorePlatform): string {
  return `credential-check/${appId}/${platform}`;
}
