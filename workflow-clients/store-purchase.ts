// Starts (or joins) the store-purchase workflow of one proof, `store-purchase/{app_id}/{proof_hash}`: conflict
// policy USE_EXISTING (a report while it runs joins the run), reuse policy ALLOW_DUPLICATE (a report after it closed
// runs again: after a retryable failure that is the retry; after success the conversion's idempotency keys answer
// `duplicate`). A run is bounded (two minutes), so a stuck one never blocks later reports for long.
import { ApplicationFailure, type WorkflowClient, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { AppIdKey } from '../schema/search-attributes.js';
import { storePurchaseWorkflow } from '../workflows/store-purchase.js';
import {
  STORE_PURCHASE_FAILURES,
  storePurchaseWorkflowId,
  type StorePurchaseFailureDetails,
  type StorePurchaseFailureType,
  type StorePurchaseInput,
} from '../workflows/store-purchase-messages.js';

export function startStorePurchase(
  client: { workflow: WorkflowClient },
  taskQueue: string,
  input: StorePurchaseInput,
): Promise<WorkflowHandleWithFirstExecutionRunId<typeof storePurchaseWorkflow>> {
  return client.workflow.start(storePurchaseWorkflow, {
    workflowId: storePurchaseWorkflowId(input.appId, input.proofHash),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    workflowExecutionTimeout: '2 minutes',
    typedSearchAttributes: [{ key: AppIdKey, value: input.appId }],
  });
}

export interface StorePurchaseFailure extends StorePurchaseFailureDetails {
  type: StorePurchaseFailureType;
}

/** The business failure a store-purchase run ended with (WorkflowFailedError > ApplicationFailure), if any. */
export function storePurchaseFailureOf(err: unknown): StorePurchaseFailure | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof ApplicationFailure && e.type && e.type in STORE_PURCHASE_FAILURES) {
      const type = e.type as StorePurchaseFailureType;
      const details = (e.details?.[0] ?? {}) as Partial<StorePurchaseFailureDetails>;
      return { type, detail: details.detail ?? e.message, ...(details.fields ? { fields: details.fields } : {}) };
    }
  }
  return undefined;
}
