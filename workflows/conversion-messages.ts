// What the API and the conversion workflow share: the update, its input and result, the workflow id helper.
import { defineUpdate } from '@temporalio/workflow';
import type { PurchaseEvent } from '../lib/purchase-event.js';

export interface ConversionWorkflowInput {
  appId: string;
  conversionKey: string;
  /** Results of recent events, carried across continue-as-new so a redelivery still answers from memory. */
  rememberedResults?: [string, IngestResult][];
  status?: string | null;
  oneTime?: boolean;
  /** Continue-as-new after this many events in one run (the server's suggestion also triggers it). */
  maxEventsPerRun?: number;
  /** How long an ended (churned, refunded, one-time) conversion stays open without events; default 30 days. */
  closeEndedAfter?: string;
  /** When the conversion's next held commission is due for release (epoch ms), carried across continue-as-new. */
  releaseAt?: number | null;
}

export interface IngestEvent {
  appId: string;
  /** The conversion this event belongs to (the workflow's key; the API resolves it, e.g. a refund's purchase). */
  conversionKey: string;
  idempotencyKey: string;
  event: PurchaseEvent;
  /**
   * An operator re-drives an event recorded as failed (`svc events retry`): applied again instead of answered from
   * memory. Absent in every update recorded before it existed, which therefore replay unchanged.
   */
  redrive?: boolean;
  /**
   * When the event happened, epoch ms: only `svc dev`'s demo history passes it (actions/demo-history.ts through
   * ingestIntoConversion's `occurredAtMs`); nothing read from HTTP ever sets it, so live events are stamped now.
   */
  occurredAtMs?: number;
}

export interface IngestResult {
  eventId: string;
  /** The spec's processing error text, when the event was accepted but not (fully) processed. */
  error: string | null;
  duplicate: boolean;
  conversionId: string | null;
  status: string | null;
  referralCode: string | null;
  /**
   * For the workflow only (never part of the answer): when the conversion's next held commission is due for release
   * (epoch ms), null when none waits. Absent from results recorded before the holding period existed.
   */
  nextReleaseAt?: number | null;
  /**
   * The event's inbox row was marked delivered in the event's own transaction: whoever handed it over has nothing
   * left to mark. Absent from results recorded before, and from repeats and rejections (the caller marks those).
   */
  inboxDelivered?: boolean;
}

/** Input of the release step: the conversion whose commissions past their holding period become payable. */
export interface ReleaseTarget {
  appId: string;
  conversionKey: string;
}

/** Activity failure types the workflow tells apart: data the database refuses, and an event that could not be applied. */
export const EVENT_REJECTED = 'PurchaseEventRejected';
export const EVENT_FAILED = 'PurchaseEventFailed';
/** The start of the `error` text of an event recorded as failed (its reason follows). */
export const FAILED_EVENT_ERROR = 'event could not be applied';

/** Input of the activity that records an event as failed. */
export interface FailedIngest {
  ingest: IngestEvent;
  reason: string;
}

export const ingestEventUpdate = defineUpdate<IngestResult, [IngestEvent]>('ingestEvent');

/**
 * The app's report of a purchase the conversion already applied as organic (a store notification that bound to no
 * user came first): its user and code may still attribute the conversion (docs/store-direct.md "Attribution survives
 * the race"). The input is the report's event, as for ingestEvent; applied in the same order as the events.
 */
export const attributeLateUpdate = defineUpdate<LateAttributionResult, [IngestEvent]>('attributeLate');

/** Its update id: one per reported event, so a repeated report is answered, never applied twice. */
export function lateAttributionUpdateId(idempotencyKey: string): string {
  return `late-attribution/${idempotencyKey}`;
}

export interface LateAttributionResult {
  /**
   * `attributed` now; `already_attributed` (a repeat, or attributed meanwhile: nothing done); `not_attributed`
   * (`reason` says why: another environment, past the attribution window, no creator for the code or the user).
   */
  outcome: 'attributed' | 'already_attributed' | 'not_attributed';
  /** not_attributed: why. attributed: INSUFFICIENT_FUNDS when a commission could not be reserved, else null. */
  reason: string | null;
  conversionId: string | null;
  status: string | null;
  referralCode: string | null;
  /** Commissions earned by this attribution (the conversion's paid periods recorded so far). */
  earned: number;
  /** For the workflow only, as IngestResult.nextReleaseAt. */
  nextReleaseAt?: number | null;
}

export function conversionWorkflowId(appId: string, conversionKey: string): string {
  return `conversion/${appId}/${conversionKey}`;
}

/** The inverse of conversionWorkflowId (a conversion key may itself hold slashes); undefined for another id. */
export function parseConversionWorkflowId(workflowId: string): { appId: string; conversionKey: string } | undefined {
  const match = /^conversion\/([^/]+)\/(.+)$/.exec(workflowId);
  return match ? { appId: match[1]!, conversionKey: match[2]! } : undefined;
}

/**
 * The generation of the conversion workflow's code (docs/purchase-pipeline.md "Workflow versions"): raised when a change drops what
 * open runs recorded (a removed patch), so a worker refuses a database whose runs it can no longer replay. 1 = r1.
 */
export const CONVERSION_WORKFLOW_GENERATION = 1;
