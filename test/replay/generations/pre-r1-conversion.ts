// FIXTURE, not service code: the conversion workflow as main ran it before release r1 (90361af), with its four
// patch markers; test/workflow/rehydrate.test.ts runs it to leave open runs of that generation behind.
// One conversion's whole lifecycle (spec "States and transitions", DESIGN.md "Temporal"): every event of the
// conversion arrives as an `ingestEvent` update (the API uses update-with-start) and is applied in arrival order,
// one at a time, by one activity that writes it to PostgreSQL in a single transaction. The workflow is the single
// writer of its conversion; it keeps the results of recent events so a redelivery answers without work, and
// continues-as-new on long histories with that memory intact. It also releases its commissions when their holding
// period ends (one durable timer for the earliest pending release) and stays open while any is still held.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
  ActivityFailure,
  ApplicationFailure,
} from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import { durationToMs } from '../../../lib/duration.js';
import type { createPurchaseActivities } from '../../../activities/purchases/index.js';
import type { createPurchaseFailureActivities } from '../../../activities/purchases/failures.js';
import { AppIdKey, AppUserIdKey, ConversionStatusKey, EnvironmentKey, ReferralCodeKey } from '../../../schema/search-attributes.js';
import {
  EVENT_FAILED,
  EVENT_REJECTED,
  ingestEventUpdate,
  type ConversionWorkflowInput,
  type IngestEvent,
  type IngestResult,
} from '../../../workflows/conversion-messages.js';

type PurchaseActivities = ReturnType<typeof createPurchaseActivities> & ReturnType<typeof createPurchaseFailureActivities>;
// Transient faults (database restarts, a killed worker) are retried until they pass; an unexpected error gets a
// bounded number of attempts (the activity counts them) and the event is then recorded as failed; business
// rejections are answered as results, never thrown.
const RETRY = { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' } as const;
const remote = proxyActivities<PurchaseActivities>({ startToCloseTimeout: '10 seconds', retry: RETRY });
// One short database transaction per event: run it as a local activity, inside the workflow task, saving the
// activity task round trips through the server (the webhook answer waits for it).
const local = proxyLocalActivities<PurchaseActivities>({ startToCloseTimeout: '10 seconds', retry: RETRY });

/** Executions recorded before local activities keep replaying with regular ones. */
function purchaseActivities(): PurchaseActivities {
  return patched('purchase-events-as-local-activities') ? local : remote;
}

const REMEMBERED_RESULTS = 200;
const DEFAULT_MAX_EVENTS_PER_RUN = 1000;
const ENDED_STATUSES = new Set(['churned', 'refunded']);

export interface ConversionSummary {
  conversionKey: string;
  status: string | null;
  events: number;
}

export async function conversionWorkflow(input: ConversionWorkflowInput): Promise<ConversionSummary> {
  const results = new Map<string, IngestResult>(input.rememberedResults ?? []);
  let status: string | null = input.status ?? null;
  let oneTime = input.oneTime ?? false;
  let eventsThisRun = 0;
  let lastEventAt = Date.now();
  let queue: Promise<unknown> = Promise.resolve();
  // The holding period (docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"): executions recorded before it keep replaying
  // without the release step. Decided once, at the start of each run.
  const holding = patched('holding-period-release');
  /** When the next held commission is due (epoch ms); null when none waits. Reported by every applied event. */
  let releaseAt: number | null = holding ? (input.releaseAt ?? null) : null;

  setHandler(
    ingestEventUpdate,
    (ingest) => {
      // Updates may arrive concurrently; chaining keeps them in arrival order, one at a time.
      const run = queue.then(() => apply(ingest));
      queue = run.catch(() => undefined);
      return run;
    },
    { validator: validateIngest },
  );

  async function apply(ingest: IngestEvent): Promise<IngestResult> {
    const known = results.get(ingest.idempotencyKey);
    if (known && !ingest.redrive) return { ...known, duplicate: true };
    const { nextReleaseAt, ...result } = await applyOrRecordRejection(ingest);
    if (holding && nextReleaseAt !== undefined) releaseAt = nextReleaseAt;
    remember(ingest.idempotencyKey, result);
    eventsThisRun += 1;
    lastEventAt = Date.now();
    status = result.status ?? status;
    oneTime ||= ingest.event.type === 'NON_RENEWING_PURCHASE';
    publish(ingest, status, result.referralCode);
    return result;
  }

  // Search attribute writes cost the server a visibility update each: publish only what changed.
  let published = '';
  function publish(ingest: IngestEvent, current: string | null, referralCode: string | null): void {
    const pairs = searchAttributePairs(ingest, current, referralCode);
    const signature = JSON.stringify(pairs.map((p) => [p.key.name, p.value]));
    if (patched('publish-changed-search-attributes-only') && signature === published) return;
    published = signature;
    upsertSearchAttributes(pairs);
  }

  function remember(key: string, result: IngestResult): void {
    results.set(key, result);
    if (results.size > REMEMBERED_RESULTS) results.delete(results.keys().next().value as string);
  }

  const maxEvents = input.maxEventsPerRun ?? DEFAULT_MAX_EVENTS_PER_RUN;
  const mustContinue = () => eventsThisRun >= maxEvents || workflowInfo().continueAsNewSuggested;
  // A churned, refunded or one-time conversion closes after a quiet month; a later event starts a new run
  // (update-with-start) and PostgreSQL still knows everything.
  const idleFor = (): Duration =>
    (ENDED_STATUSES.has(status ?? '') || oneTime ? (input.closeEndedAfter ?? '30 days') : '400 days') as Duration;

  /** One idle timer, re-armed only when it fires or the idle period changes: events cost no timer commands. */
  async function waitWithOneIdleTimer(): Promise<'continue' | 'close'> {
    for (;;) {
      const period = idleFor();
      const remaining = lastEventAt + durationToMs(period) - Date.now();
      const woke = await condition(() => mustContinue() || idleFor() !== period, Math.max(remaining, 1));
      if (mustContinue()) return 'continue';
      if (!woke && Date.now() - lastEventAt >= durationToMs(period)) {
        await condition(allHandlersFinished);
        if (Date.now() - lastEventAt >= durationToMs(period)) return 'close';
      }
    }
  }

  /**
   * The current version: one timer for whichever comes first, the earliest pending release or the end of the idle
   * period, re-armed only when it fires or either changes. A conversion still holding commissions never closes.
   */
  async function waitWithReleases(): Promise<'continue' | 'close'> {
    for (;;) {
      const period = idleFor();
      const due = releaseAt;
      const idleEnd = lastEventAt + durationToMs(period);
      const wakeAt = due === null ? idleEnd : Math.min(idleEnd, due);
      const woke = await condition(() => mustContinue() || idleFor() !== period || releaseAt !== due, Math.max(wakeAt - Date.now(), 1));
      if (mustContinue()) return 'continue';
      if (woke) continue;
      if (releaseAt !== null && Date.now() >= releaseAt) {
        await release();
        continue;
      }
      if (releaseAt === null && Date.now() - lastEventAt >= durationToMs(period)) {
        await condition(allHandlersFinished);
        if (releaseAt === null && Date.now() - lastEventAt >= durationToMs(period)) return 'close';
      }
    }
  }

  /** The release step, queued behind the events being applied: the workflow stays the single writer, in order. */
  async function release(): Promise<void> {
    const run = queue.then(() => local.releaseDueCommissions({ appId: input.appId, conversionKey: input.conversionKey }));
    queue = run.catch(() => undefined);
    releaseAt = await run;
  }

  /** The first version: a fresh idle timer after every event (kept so executions recorded with it replay). */
  async function waitWithTimerPerEvent(): Promise<'continue' | 'close'> {
    for (;;) {
      const seen = eventsThisRun;
      const woke = await condition(() => eventsThisRun !== seen || mustContinue(), idleFor());
      if (mustContinue()) return 'continue';
      if (!woke) {
        await condition(allHandlersFinished);
        if (eventsThisRun === seen) return 'close';
      }
    }
  }

  const outcome = holding
    ? await waitWithReleases()
    : patched('one-idle-timer')
      ? await waitWithOneIdleTimer()
      : await waitWithTimerPerEvent();
  if (outcome === 'continue') {
    await condition(allHandlersFinished);
    await continueAsNew<typeof conversionWorkflow>({
      ...input,
      status,
      oneTime,
      rememberedResults: [...results.entries()],
      ...(holding ? { releaseAt } : {}),
    });
  }
  return { conversionKey: input.conversionKey, status, events: eventsThisRun };
}

/**
 * An event the database refuses for good is recorded as an error, and one that could not be applied (an unexpected
 * error after its bounded attempts) as failed with its reason, instead of blocking the conversion.
 */
async function applyOrRecordRejection(ingest: IngestEvent): Promise<IngestResult> {
  const activities = purchaseActivities();
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

/** A regular activity's failure arrives wrapped in ActivityFailure; a local activity's may arrive as it is. */
function applicationFailureOf(err: unknown): ApplicationFailure | undefined {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure ? failure : undefined;
}

function validateIngest(ingest: IngestEvent): void {
  if (!ingest?.appId || !ingest.conversionKey || !ingest.idempotencyKey || !ingest.event?.type) {
    throw ApplicationFailure.nonRetryable('ingestEvent needs appId, conversionKey, idempotencyKey and event.type', 'InvalidEvent');
  }
}

function searchAttributePairs(ingest: IngestEvent, status: string | null, referralCode: string | null) {
  return [
    { key: AppIdKey, value: ingest.appId },
    { key: EnvironmentKey, value: ingest.event.environment },
    ...(ingest.event.appUserId ? [{ key: AppUserIdKey, value: ingest.event.appUserId }] : []),
    ...(referralCode ? [{ key: ReferralCodeKey, value: referralCode }] : []),
    ...(status ? [{ key: ConversionStatusKey, value: status }] : []),
  ];
}
