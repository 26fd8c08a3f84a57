// Hands one purchase event to its conversion workflow: update-with-start of `ingestEvent` on
// `conversion/{app_id}/{conversion_key}` (conflict policy USE_EXISTING, update id = the spec's idempotency key).
// The one way in, shared by the webhook API, the test-integration activity and the tests. Also the app's late
// report of a purchase applied as organic (`attributeLate`, activities/store-direct/record.ts).
import { WithStartWorkflowOperation, type WorkflowClient } from '@temporalio/client';
import { idempotencyKey, type PurchaseEvent } from '../lib/purchase-event.js';
import { AppIdKey, AppUserIdKey, EnvironmentKey, ReferralCodeKey } from '../schema/search-attributes.js';
import { conversionWorkflow } from '../workflows/conversion.js';
import {
  attributeLateUpdate,
  conversionWorkflowId,
  ingestEventUpdate,
  lateAttributionUpdateId,
  type ConversionWorkflowInput,
  type IngestResult,
  type LateAttributionResult,
} from '../workflows/conversion-messages.js';

export interface ConversionTarget {
  taskQueue: string;
  appId: string;
  conversionKey: string;
  /** Start options of a new run (tests shorten continue-as-new and closing). */
  runOptions?: Pick<ConversionWorkflowInput, 'maxEventsPerRun' | 'closeEndedAfter'>;
}

export function workflowIdOf(target: ConversionTarget): string {
  return conversionWorkflowId(target.appId, target.conversionKey);
}

/** A re-drive of a failed event (`svc events retry`): applied again, under an update id of its own. */
export interface Redrive {
  updateId: string;
}

/**
 * `occurredAtMs`: the demo history's explicit time of the event (IngestEvent.occurredAtMs); callers that take events
 * from HTTP never pass it.
 */
export function ingestIntoConversion(
  client: { workflow: WorkflowClient },
  target: ConversionTarget,
  event: PurchaseEvent,
  redrive?: Redrive,
  occurredAtMs?: number,
): Promise<IngestResult> {
  const { appId, conversionKey } = target;
  const key = idempotencyKey(appId, event);
  return client.workflow.executeUpdateWithStart(ingestEventUpdate, {
    args: [
      {
        appId,
        conversionKey,
        idempotencyKey: key,
        event,
        ...(redrive ? { redrive: true } : {}),
        ...(occurredAtMs !== undefined ? { occurredAtMs } : {}),
      },
    ],
    // A redelivery reuses the key (Temporal answers the update it already ran); a re-drive must run again.
    updateId: redrive?.updateId ?? key,
    startWorkflowOperation: startOperation(target, event),
  });
}

/**
 * The app's report of an event the conversion applied as organic before the report came: `attributeLate` (started
 * like an event, in case the conversion closed since). One update id per reported event: a repeat is answered.
 */
export function attributeLateInConversion(
  client: { workflow: WorkflowClient },
  target: ConversionTarget,
  event: PurchaseEvent,
): Promise<LateAttributionResult> {
  const { appId, conversionKey } = target;
  const key = idempotencyKey(appId, event);
  return client.workflow.executeUpdateWithStart(attributeLateUpdate, {
    args: [{ appId, conversionKey, idempotencyKey: key, event }],
    updateId: lateAttributionUpdateId(key),
    startWorkflowOperation: startOperation(target, event),
  });
}

function startOperation(target: ConversionTarget, event: PurchaseEvent) {
  const { appId, conversionKey, taskQueue } = target;
  return new WithStartWorkflowOperation(conversionWorkflow, {
    workflowId: workflowIdOf(target),
    taskQueue,
    args: [{ appId, conversionKey, ...target.runOptions }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: startSearchAttributes(appId, event),
  });
}

/**
 * What an operator finds a conversion by (DESIGN.md "Temporal"), set once by the start: the workflow itself writes
 * only ConversionStatus. The user and the code are those of the event that started the run, when it carries them.
 */
function startSearchAttributes(appId: string, event: PurchaseEvent) {
  return [
    { key: AppIdKey, value: appId },
    { key: EnvironmentKey, value: event.environment },
    ...(event.appUserId ? [{ key: AppUserIdKey, value: event.appUserId }] : []),
    ...(event.referralCode ? [{ key: ReferralCodeKey, value: event.referralCode }] : []),
  ];
}
