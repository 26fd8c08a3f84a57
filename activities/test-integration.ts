// Activities of the test-integration workflow. The sandbox purchase enters the conversion pipeline the way a
// provider webhook does (api/webhooks/submit-event.ts): update-with-start of `ingestEvent` on the conversion's
// workflow, update id = the spec's idempotency key. The client is the worker's own (activity context), bound to
// its namespace; the conversion workflow runs on the worker's task queue.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import { conversionKeyOf, type PurchaseEvent } from '../lib/purchase-event.js';
import type { IngestResult } from '../workflows/conversion-messages.js';
import { ingestIntoConversion, workflowIdOf } from '../workflow-clients/conversion-ingest.js';
import { NO_TEST_CREATOR_CODE } from '../workflows/test-integration-messages.js';
import { findTestReferralCode, type TestReferralCode } from '../db/integration.js';

export interface SandboxPurchaseInput {
  appId: string;
  runId: string;
  referralCode: string;
  eventTimestampMs: number;
}
export interface PushedPurchase extends IngestResult {
  appUserId: string;
  conversionWorkflowId: string;
}

export function createTestIntegrationActivities({ db }: { db: Knex }) {
  return {
    async pickTestReferralCode(appId: string): Promise<TestReferralCode> {
      const found = await findTestReferralCode(db, appId);
      if (!found) throw ApplicationFailure.nonRetryable(NO_TEST_CREATOR_CODE.message, NO_TEST_CREATOR_CODE.type);
      return found;
    },

    async pushSandboxPurchase(input: SandboxPurchaseInput): Promise<PushedPurchase> {
      const { client, info } = Context.current();
      const event = sandboxPurchase(input);
      const target = { taskQueue: info.taskQueue, appId: input.appId, conversionKey: conversionKeyOf(event)! };
      const result = await ingestIntoConversion(client, target, event);
      return { ...result, appUserId: event.appUserId!, conversionWorkflowId: workflowIdOf(target) };
    },
  };
}

/** A paid monthly SANDBOX purchase of a fresh test user, with the code as the `svc_code` subscriber attribute. */
function sandboxPurchase({ runId, referralCode, eventTimestampMs }: SandboxPurchaseInput): PurchaseEvent {
  const id = `svc_test_${runId}`;
  const attributes = { svc_code: { value: referralCode }, svc_referral: { value: 'true' } };
  return {
    source: 'test_integration',
    providerEventId: null,
    type: 'INITIAL_PURCHASE',
    appUserId: id,
    originalAppUserId: id,
    aliases: [],
    transferredFrom: [],
    transferredTo: [],
    productId: 'svc_test_monthly',
    newProductId: null,
    periodType: 'NORMAL',
    purchasedAtMs: eventTimestampMs,
    expirationAtMs: eventTimestampMs + 30 * 86_400_000,
    eventTimestampMs,
    environment: 'SANDBOX',
    store: 'TEST_STORE',
    transactionId: id,
    originalTransactionId: id,
    priceUsd: 9.99,
    priceInPurchasedCurrency: 9.99,
    currency: 'USD',
    takehomePercentage: null,
    cancelReason: null,
    isTrialConversion: false,
    referralCode,
    subscriberAttributes: attributes,
    raw: { test_integration: { run_id: runId } },
  };
}
