// One conversion's whole lifecycle (spec "States and transitions", DESIGN.md "Temporal"): every event of the
// conversion arrives as an `ingestEvent` update (the API uses update-with-start) and is applied in arrival order,
// one at a time, by one local activity that writes it to PostgreSQL in a single transaction; the app's late report
// of a purchase applied as organic arrives as `attributeLate` and takes its turn in the same order. The workflow is
// the single writer of its conversion; it keeps the results of recent events so a redelivery answers without work,
// releases its commissions when their holding period ends (one durable timer for whichever comes first, the next
// release or the end of the idle period), continues-as-new on long histories with that memory intact, and closes
// when idle with nothing held.
//
// One version: command-order changes from the first release on go behind `patched()`, are deprecated in the next
// release and removed in the one after (docs/purchase-pipeline.md "Workflow versions"); `svc workflows rehydrate` moves open runs of
// an older generation (cli/workflows.ts).
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
  ActivityFailure,
  ApplicationFailure,
} from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import { durationToMs } from '../lib/duration.js';
import type { createPurchaseActivities } from '../activities/purchases/index.js';
import type { createPurchaseFailureActivities } from '../activities/purchases/failures.js';
import type { createLateAttributionActivities } from '../activities/purchases/late-attribution.js';
import { ConversionStatusKey } from '../schema/search-attributes.js';
import {
  attributeLateUpdate,
  EVENT_FAILED,
  EVENT_REJECTED,
  ingestEventUpdate,
  type ConversionWorkflowInput,
  type IngestEvent,
  type IngestResult,
  type LateAttributionResult,
} from './conversion-messages.js';

type PurchaseActivities = ReturnType<typeof createPurchaseActivities> &
  ReturnType<typeof createPurchaseFailureActivities> &
  ReturnType<typeof createLateAttributionActivities>;
// Transient faults (database restarts, a killed worker) are retried until they pass; an unexpected error gets a
// bounded number of attempts (the activity counts them) and the event is then recorded as failed; business
// rejections are answered as results, never thrown. One short transaction per event, run inside the workflow task
// as a local activity: the webhook answer waits for it, and a regular activity costs task round trips.
const activities = proxyLocalActivities<PurchaseActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

const REMEMBERED_RESULTS = 200;
const DEFAULT_MAX_EVENTS_PER_RUN = 1000;
const ENDED_STATUSES = new Set(['churned', 'refunded']);

export interface ConversionSummary {
  conversionKey: string;
  status: string | null;
  events: number;
}

/** Everything the workflow knows between events; what continue-as-new carries over is in ConversionWorkflowInput. */
interface ConversionState {
  /** Answers of recent events by idempotency key, oldest first. */
  results: Map<string, IngestResult>;
  status: string | null;
  oneTime: boolean;
  eventsThisRun: number;
  lastEventAt: number;
  /** When the next held commission is due (epoch ms); null when none waits. Reported by every applied event. */
  releaseAt: number | null;
  /** The ConversionStatus search attribute as last written (carried over by continue-as-new). */
  publishedStatus: string | null;
}

export async function conversionWorkflow(input: ConversionWorkflowInput): Promise<ConversionSummary> {
  const state: ConversionState = {
    results: new Map(input.rememberedResults ?? []),
    status: input.status ?? null,
    oneTime: input.oneTime ?? false,
    eventsThisRun: 0,
    lastEventAt: Date.now(),
    releaseAt: input.releaseAt ?? null,
    publishedStatus: input.status ?? null,
  };
  // Updates may arrive concurrently, and the release step runs between them: one chain keeps them in order.
  let queue: Promise<unknown> = Promise.resolve();
  function inOrder<T>(step: () => Promise<T>): Promise<T> {
    const run = queue.then(step);
    queue = run.catch(() => undefined);
    return run;
  }

  setHandler(ingestEventUpdate, (ingest) => inOrder(() => receive(state, ingest)), { validator: validateIngest });
  setHandler(attributeLateUpdate, (report) => inOrder(() => attributeLate(state, report)), { validator: validateIngest });

  const outcome = await waitForReleasesOrTheEnd(state, input, () => inOrder(() => releaseDue(state, input)));
  if (outcome === 'continue') {
    await condition(allHandlersFinished);
    await continueAsNew<typeof conversionWorkflow>({
      ...input,
      status: state.status,
      oneTime: state.oneTime,
      rememberedResults: [...state.results.entries()],
      releaseAt: state.releaseAt,
    });
  }
  return { conversionKey: input.conversionKey, status: state.status, events: state.eventsThisRun };
}

/** One event: answered from memory when seen before, else applied, remembered and published. */
async function receive(state: ConversionState, ingest: IngestEvent): Promise<IngestResult> {
  const known = state.results.get(ingest.idempotencyKey);
  if (known && !ingest.redrive) return { ...known, duplicate: true };
  const { nextReleaseAt, ...result } = await applyOrRecordRejection(ingest);
  if (nextReleaseAt !== undefined) state.releaseAt = nextReleaseAt;
  remember(state, ingest.idempotencyKey, result);
  state.eventsThisRun += 1;
  state.lastEventAt = Date.now();
  state.status = result.status ?? state.status;
  state.oneTime ||= ingest.event.type === 'NON_RENEWING_PURCHASE';
  publishStatus(state);
  return result;
}

/**
 * The app's report of a purchase applied as organic before it came: its user and code attribute the conversion now
 * if they can (activities/purchases/late-attribution.ts). One that cannot be applied after its bounded attempts is
 * answered as not attributed, with the reason, instead of failing the report. Like an organic trial attributed when
 * it converts, it sets no ReferralCode search attribute (the database has the code, docs/purchase-pipeline.md).
 */
async function attributeLate(state: ConversionState, report: IngestEvent): Promise<LateAttributionResult> {
  let late: LateAttributionResult;
  try {
    late = await activities.attributeConversionLate(report);
  } catch (err) {
    const failure = applicationFailureOf(err);
    if (failure?.type !== EVENT_FAILED && failure?.type !== EVENT_REJECTED) throw err;
    log.warn('late attribution could not be applied', { idempotencyKey: report.idempotencyKey, reason: failure.message });
    return {
      outcome: 'not_attributed',
      reason: `late attribution could not be applied: ${failure.message}`,
      conversionId: null,
      status: state.status,
      referralCode: null,
      earned: 0,
    };
  }
  const { nextReleaseAt, ...result } = late;
  if (nextReleaseAt !== undefined) state.releaseAt = nextReleaseAt;
  // The remembered answers describe the organic conversion: a redelivery now reads its event's outcome from PostgreSQL.
  if (result.outcome === 'attributed') state.results.clear();
  return result;
}

function remember(state: ConversionState, key: string, result: IngestResult): void {
  state.results.set(key, result);
  if (state.results.size > REMEMBERED_RESULTS) state.results.delete(state.results.keys().next().value as string);
}

/**
 * AppId, Environment, AppUserId and ReferralCode are set by the start (workflow-clients/conversion-ingest.ts); only
 * the status changes during a run, and each write costs the server a visibility update: written when it changes.
 */
function publishStatus(state: ConversionState): void {
  if (!state.status || state.status === state.publishedStatus) return;
  state.publishedStatus = state.status;
  upsertSearchAttributes([{ key: ConversionStatusKey, value: state.status }]);
}

/** The release step: commissions past their holding period become payable; answers the next due time. */
async function releaseDue(state: ConversionState, input: ConversionWorkflowInput): Promise<void> {
  state.releaseAt = await activities.releaseDueCommissions({ appId: input.appId, conversionKey: input.conversionKey });
}

/**
 * One timer for whichever comes first, the next release or the end of the idle period, re-armed only when it fires
 * or either changes (events cost no timer commands). A conversion still holding commissions never closes; a
 * churned, refunded or one-time one closes after a quiet month (a later event starts a new run, PostgreSQL still
 * knows everything).
 */
async function waitForReleasesOrTheEnd(
  state: ConversionState,
  input: ConversionWorkflowInput,
  release: () => Promise<void>,
): Promise<'continue' | 'close'> {
  const maxEvents = input.maxEventsPerRun ?? DEFAULT_MAX_EVENTS_PER_RUN;
  const mustContinue = () => state.eventsThisRun >= maxEvents || workflowInfo().continueAsNewSuggested;
  const idleFor = (): Duration =>
    (ENDED_STATUSES.has(state.status ?? '') || state.oneTime ? (input.closeEndedAfter ?? '30 days') : '400 days') as Duration;
  const idle = (period: Duration) => state.releaseAt === null && Date.now() - state.lastEventAt >= durationToMs(period);
  for (;;) {
    const period = idleFor();
    const due = state.releaseAt;
    const idleEnd = state.lastEventAt + durationToMs(period);
    const wakeAt = due === null ? idleEnd : Math.min(idleEnd, due);
    const woke = await condition(() => mustContinue() || idleFor() !== period || state.releaseAt !== due, Math.max(wakeAt - Date.now(), 1));
    if (mustContinue()) return 'continue';
    if (woke) continue;
    if (state.releaseAt !== null && Date.now() >= state.releaseAt) {
      await release();
    } else if (idle(period)) {
      await condition(allHandlersFinished);
      if (idle(period)) return 'close';
    }
  }
}

/**
 * An event the database refuses for good is recorded as an error, and one that could not be applied (an unexpected
 * error after its bounded attempts) as failed with its reason, instead of blocking the conversion.
 */
async function applyOrRecordRejection(ingest: IngestEvent): Promise<IngestResult> {
  try {
    return await activities.applyPurchaseEvent(ingest);
  } catch (err) {
    const failure = applicationFailureOf(err);
    if (failure?.type === EVENT_REJECTED) return activities.recordRejectedPurchaseEvent(ingest);
    if (failure?.type === EVENT_FAILED) {
      const reason = typeof failure.details?.[0] === 'string' ? failure.details[0] : failure.message;
      log.warn('purchase event recorded as failed', { idempotencyKey: ingest.idempotencyKey, reason });
      return activities.recordFailedPurchaseEvent({ ingest, reason });
    }
    throw err;
  }
}

/** A local activity's failure may arrive wrapped in ActivityFailure or as it is. */
function applicationFailureOf(err: unknown): ApplicationFailure | undefined {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure ? failure : undefined;
}

function validateIngest(ingest: IngestEvent): void {
  if (!ingest?.appId || !ingest.conversionKey || !ingest.idempotencyKey || !ingest.event?.type) {
    throw ApplicationFailure.nonRetryable('ingestEvent needs appId, conversionKey, idempotencyKey and event.type', 'InvalidEvent');
  }
}
