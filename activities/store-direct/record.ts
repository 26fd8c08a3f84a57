// The hand-off: each verified, priced event enters its conversion workflow exactly as a webhook event does
// (update-with-start through workflow-clients/conversion-ingest.ts, update id = the spec's idempotency key; a
// workflow cannot call update-with-start itself). The client is the worker's own (activity context). The answer is
// built from the conversion's results and kept on the proof. `duplicate` is whether the event log held every event
// before this report: the conversion's update answers a repeated update id with its first result (duplicate: false),
// so it cannot tell; the verification step looked it up before anything of this run was handed off (a retry of the
// hand-off must not call its own event a duplicate). A report of an event a store notification recorded first as
// organic (it bound to no user and the wait for this report ran out) still attributes its conversion with the
// report's user and code (`attributeLate`, docs/store-direct.md "Attribution survives the race").
import { Context } from '@temporalio/activity';
import { recordStoreProof } from '../../db/store-proofs.js';
import { conversionKeyOf, type PurchaseEvent } from '../../lib/purchase-event.js';
import type { StorePlatform } from '../../schema/types.js';
import { attributeLateInConversion, ingestIntoConversion } from '../../workflow-clients/conversion-ingest.js';
import type { IngestResult, LateAttributionResult } from '../../workflows/conversion-messages.js';
import type { StorePurchaseAnswer } from '../../workflows/store-purchase-messages.js';
import { isProcessedOutcome, ORGANIC } from '../../actions/purchase-event/attribution.js';
import type { StoreDirectContext } from './context.js';

export interface RecordStorePurchaseInput {
  appId: string;
  proofHash: string;
  platform: StorePlatform;
  validated: string;
  environment: 'PRODUCTION' | 'SANDBOX';
  events: PurchaseEvent[];
  recordedBefore: boolean[];
}

export function handOffActivities(ctx: StoreDirectContext) {
  return {
    async recordStorePurchase(input: RecordStorePurchaseInput): Promise<StorePurchaseAnswer> {
      const { client, info } = Context.current();
      const results: IngestResult[] = [];
      // In order: a refund reported with its purchase applies after it.
      for (const [i, event] of input.events.entries()) {
        const target = { taskQueue: info.taskQueue, appId: input.appId, conversionKey: conversionKeyOf(event)! };
        const result = await ingestIntoConversion(client, target, event);
        results.push(
          appliedOrganicBefore(event, result, input.recordedBefore[i] ?? false)
            ? withLateAttribution(result, await attributeLateInConversion(client, target, event))
            : result,
        );
      }
      const last = results.at(-1)!;
      const answer: StorePurchaseAnswer = {
        success: true,
        validated: input.validated,
        environment: input.environment,
        event_type: input.events.at(-1)!.type,
        duplicate: input.recordedBefore.every(Boolean),
        recorded: true,
        result: { processed: isProcessedOutcome(last.error), event_id: last.eventId },
      };
      await recordStoreProof(ctx.db, {
        appId: input.appId,
        proofHash: input.proofHash,
        platform: input.platform,
        workflowId: info.workflowExecution?.workflowId ?? null,
        status: 'verified',
        purchaseEventId: last.eventId,
        result: { ...answer },
      });
      return answer;
    },
  };
}

/**
 * The event was recorded before this report and answered as organic, and the report brings what the notification
 * lacked (a code, or the user). Events answered attributed, or first recorded by this report, cost nothing more.
 */
function appliedOrganicBefore(event: PurchaseEvent, result: IngestResult, recordedBefore: boolean): boolean {
  return recordedBefore && result.error === ORGANIC && result.referralCode === null && Boolean(event.referralCode || event.appUserId);
}

/** The report's answer after a late attribution: the conversion's code, or as organic as before. */
function withLateAttribution(result: IngestResult, late: LateAttributionResult): IngestResult {
  if (late.outcome === 'not_attributed') return result;
  return { ...result, error: late.reason, referralCode: late.referralCode, status: late.status ?? result.status };
}
