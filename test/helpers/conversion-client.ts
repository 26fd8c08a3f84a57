// Drives conversion workflows directly (without HTTP) the way the API does: update-with-start per event.
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { idempotencyKey, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import { conversionWorkflow } from '../../workflows/conversion.js';
import { conversionWorkflowId, ingestEventUpdate, type IngestResult } from '../../workflows/conversion-messages.js';
import type { ProviderBody } from './subprovider-events.js';

export function ingest(client: Client, taskQueue: string, appId: string, body: ProviderBody, opts: { maxEventsPerRun?: number; closeEndedAfter?: string } = {}): Promise<IngestResult> {
  const event = normalizeSubproviderEvent(body, Date.now());
  const key = event.type === 'NON_RENEWING_PURCHASE' ? event.transactionId! : (event.originalTransactionId ?? event.transactionId!);
  const ikey = idempotencyKey(appId, event);
  return client.workflow.executeUpdateWithStart(ingestEventUpdate, {
    args: [{ appId, conversionKey: key, idempotencyKey: ikey, event }],
    updateId: ikey,
    startWorkflowOperation: new WithStartWorkflowOperation(conversionWorkflow, {
      workflowId: conversionWorkflowId(appId, key), taskQueue, args: [{ appId, conversionKey: key, ...opts }], workflowIdConflictPolicy: 'USE_EXISTING',
    }),
  });
}
