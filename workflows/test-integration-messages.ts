// What the test-integration workflow and its callers share: its id, input, result and business rejection. No
// workflow code here, so activities and API code can import it without pulling in the workflow.

/** Business rejection (ApplicationFailure type) when the app has no creator code to test with. */
export const NO_TEST_CREATOR_CODE = {
  type: 'NoTestCreatorCode',
  message: 'test-integration needs an active campaign with at least one creator code',
} as const;

export interface TestIntegrationInput {
  appId: string;
  runId: string;
}

export interface TestIntegrationResult {
  runId: string;
  appUserId: string;
  campaignId: string;
  referralCode: string;
  eventId: string;
  conversionId: string | null;
  conversionWorkflowId: string;
  attributed: boolean;
  environment: 'SANDBOX';
  /** The conversion's status after the purchase (active for a paid purchase). */
  status: string | null;
  /** The pipeline's processing error text, when the purchase was accepted but not attributed. */
  error: string | null;
}

export function testIntegrationWorkflowId(appId: string, runId: string): string {
  return `test-integration/${appId}/${runId}`;
}
