// The agent's end-to-end check (spec: test-integration "pushes a sandbox INITIAL_PURCHASE through the real
// pipeline"): pick a creator code of an active campaign, then hand a SANDBOX INITIAL_PURCHASE of a fresh test user
// carrying that code to the conversion workflow exactly like a provider webhook does, and report what happened.
// Sandbox: attributed and visible, commission `simulated`, no wallet change, no stats.
import { proxyActivities } from '@temporalio/workflow';
import type { createTestIntegrationActivities } from '../activities/test-integration.js';
import type { TestIntegrationInput, TestIntegrationResult } from './test-integration-messages.js';

const { pickTestReferralCode, pushSandboxPurchase } = proxyActivities<ReturnType<typeof createTestIntegrationActivities>>({
  // Above the conversion update's own answer time; the update id makes a retried push the same event.
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export async function testIntegrationWorkflow({ appId, runId }: TestIntegrationInput): Promise<TestIntegrationResult> {
  const { campaignId, code } = await pickTestReferralCode(appId);
  // Workflow time is replay-safe, so a retried push carries the same event timestamp (same idempotency key).
  const pushed = await pushSandboxPurchase({ appId, runId, referralCode: code, eventTimestampMs: Date.now() });
  return {
    runId,
    appUserId: pushed.appUserId,
    campaignId,
    referralCode: code,
    eventId: pushed.eventId,
    conversionId: pushed.conversionId,
    conversionWorkflowId: pushed.conversionWorkflowId,
    attributed: pushed.referralCode !== null,
    environment: 'SANDBOX',
    status: pushed.status,
    error: pushed.error,
  };
}
