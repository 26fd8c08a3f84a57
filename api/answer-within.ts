// The one way the API hands work to a workflow and answers with its result: start (or update) it, wait at most a
// deadline, and past it answer 503 saying the work is kept (a later call joins it or its unique keys dedupe it).
// Used by the provider webhook, POST /api/sdk/purchase, the credential green-check and test-integration.
import { AppError, UnavailableError, type NextCall } from '../errors/http-errors.js';
import type { Logger } from '../runtime/logger.js';

export interface AnswerWithin<T> {
  /** Starts or updates the workflow and resolves with its answer. A thunk, called once: a with-start operation is single-use. */
  begin: () => Promise<T>;
  /** Default 25 s: well inside a provider's 30 s webhook timeout and an agent tool call's patience. */
  withinMs?: number;
  /** The 503 past the deadline: what is kept and where the caller looks next. */
  late: { detail: string; next?: NextCall };
  /** A failure the caller answers itself (a workflow's business refusal), or undefined. */
  refusal?: (err: unknown) => AppError | undefined;
  /** Runs on any failure, the deadline included, before the answer (the webhook leaves its inbox row to the drainer). */
  keep?: (err: unknown) => Promise<void>;
  /** Any other failure: logged with `context`, answered 503 with `detail`. */
  unavailable: { detail: string; log: string; context: Record<string, unknown> };
  logger: Logger;
}

const ANSWER_WITHIN_MS = 25_000;

/** Retry-After of every 503 here: the work is usually done within seconds. */
const RETRY_AFTER_SECONDS = 5;

export async function answerWithin<T>(o: AnswerWithin<T>): Promise<T> {
  const run = o.begin();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const late = new UnavailableError(o.late.detail, RETRY_AFTER_SECONDS);
    timer = setTimeout(() => reject(o.late.next ? late.pointingAt(o.late.next) : late), o.withinMs ?? ANSWER_WITHIN_MS);
  });
  try {
    return await Promise.race([run, deadline]);
  } catch (err) {
    if (o.keep) await o.keep(err).catch(() => undefined);
    if (err instanceof AppError) throw err;
    const refusal = o.refusal?.(err);
    if (refusal) throw refusal;
    o.logger.error({ err, ...o.unavailable.context }, o.unavailable.log);
    throw new UnavailableError(o.unavailable.detail, RETRY_AFTER_SECONDS);
  } finally {
    clearTimeout(timer);
    run.catch(() => undefined);
  }
}
