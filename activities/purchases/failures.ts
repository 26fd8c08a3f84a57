// Poison events. Outages (a database restart, a lost connection) and lost races (serialization failures, deadlocks)
// are transient: the activity retries them until they pass. Data the database refuses (classes 22/23) is rejected
// at once (index.ts). Anything else, a bug such as a TypeError on a payload nobody expected, gets a few attempts
// and then fails for good: the workflow records the event as `failed` with its reason, answers the caller, and the
// conversion goes on with its next event. `svc events retry` re-drives failed events once the bug is fixed.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import { isRefusedData, isTransientDatabaseError } from '../../errors/pg-errors.js';
import { recordFailedPurchaseEvent } from '../../actions/purchase-event/record-failed.js';
import { EVENT_FAILED, FAILED_EVENT_ERROR, type FailedIngest, type IngestResult } from '../../workflows/conversion-messages.js';

/**
 * Attempts an unexpected error gets. The local activity backs off 0.2, 0.4, 0.8, 1.6 s between them (the
 * workflow's retry policy), so five attempts end within about 4 s plus the attempts themselves: well inside the
 * webhook's 25-second answer limit, so the provider hears about the failure instead of a 503.
 */
const UNEXPECTED_ERROR_ATTEMPTS = 5;

/** Called once each time an event is newly recorded as failed (the worker counts them for /metrics). */
export type EventFailedObserver = (e: { appId: string; eventType: string; reason: string }) => void;

function currentAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return Number.POSITIVE_INFINITY; // called outside an activity (a script, a test): no retries to wait for
  }
}

/** One line naming the error, short enough for a column, a log line and an HTTP answer. */
export function reasonOf(err: unknown): string {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  // knex puts the whole statement, values included, in front of PostgreSQL's message: keep the message only.
  const message = 'severity' in e && e.message.includes(' - ') ? e.message.slice(e.message.lastIndexOf(' - ') + 3) : e.message;
  const text = `${e.name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}`.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/**
 * What applyPurchaseEvent throws for an error that is not refused data: the error itself while it may pass (a
 * transient fault, or an unexpected one with attempts left), else a non-retryable PurchaseEventFailed.
 */
export function retryOrFail(err: unknown): unknown {
  if (isTransientDatabaseError(err) || isRefusedData(err)) return err;
  if (err instanceof ApplicationFailure) return err;
  const attempt = currentAttempt();
  if (attempt < UNEXPECTED_ERROR_ATTEMPTS) return err;
  const reason = reasonOf(err);
  return ApplicationFailure.create({
    type: EVENT_FAILED,
    nonRetryable: true,
    cause: err instanceof Error ? err : undefined,
    message: `${FAILED_EVENT_ERROR} after ${Number.isFinite(attempt) ? attempt : 1} attempts: ${reason}`,
    details: [reason],
  });
}

export interface FailureDeps {
  db: Knex;
  onEventFailed?: EventFailedObserver;
}

export function createPurchaseFailureActivities(deps: FailureDeps) {
  return {
    /**
     * Records an event the apply activity gave up on as `failed` with its reason, so a redelivery answers the same
     * and the conversion goes on (actions/purchase-event/record-failed.ts); counts it when newly failed.
     */
    async recordFailedPurchaseEvent(failed: FailedIngest): Promise<IngestResult> {
      const result = await recordFailedPurchaseEvent(deps, failed);
      if (result.failed) deps.onEventFailed?.({ appId: failed.ingest.appId, eventType: failed.ingest.event.type, reason: failed.reason });
      return result.answer;
    },
  };
}
