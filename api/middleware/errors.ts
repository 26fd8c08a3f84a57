// The single error path (Koa docs, error-handling.md): domain errors become the spec's `{"detail": ...}` bodies,
// rate limiting a plain-text page, an outage of PostgreSQL or Temporal a 503 (call again), anything unexpected a
// generic 500 that is logged but never shown.
// Called by the edge middleware (request-context.ts) around everything else.
import { AppError, RateLimitedError } from '../../errors/http-errors.js';
import { isOutage, outageDetail } from '../../errors/outage.js';
import type { Router } from '@koa/router';
import type { AppContext, Middleware, RequestState } from '../context.js';
import type { Logger } from '../../runtime/logger.js';

/** A route that answered nothing is a JSON 404 like every other error. */
export function finishUnanswered(ctx: AppContext): void {
  if (ctx.status === 404 && ctx.body === undefined) {
    ctx.status = 404;
    ctx.body = { detail: 'Not Found' };
  }
}

/**
 * A router's `allowedMethods()` answers a known path asked with a wrong method by a bare 405 (501 for a method it
 * does not know) and its `Allow` list. Thrown instead, it reaches the one error path: `{"detail"}` naming the
 * allowed methods, with the `Allow` header carried over. (The router's own `throw: true` mode builds its error
 * without the allowed list, so it could not name them.)
 */
export function allowedMethodsAsErrors(router: Router<RequestState, AppContext>): Middleware {
  const allowedMethods = router.allowedMethods() as unknown as Middleware;
  return async (ctx, next) => {
    await allowedMethods(ctx, next);
    if ((ctx.status !== 405 && ctx.status !== 501) || ctx.body !== undefined) return;
    const allow = ctx.response.get('Allow');
    throw new AppError(
      ctx.status,
      `${ctx.method} is not allowed on ${ctx.path}${allow ? `; allowed: ${allow}` : ''}.`,
      allow ? { Allow: allow } : {},
    );
  };
}

export function respondWithError(ctx: AppContext, err: unknown, log: () => Logger): void {
  if (err instanceof RateLimitedError) {
    ctx.status = 429;
    ctx.set(err.headers);
    ctx.type = 'text/plain';
    ctx.body = 'Too Many Requests\n';
    return;
  }
  if (err instanceof AppError) {
    ctx.status = err.status;
    ctx.set(err.headers);
    ctx.body = { detail: err.detail, ...err.next };
    return;
  }
  const status = (err as { status?: number; expose?: boolean }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
    ctx.status = status;
    ctx.body = { detail: (err as Error).message };
    return;
  }
  if (isOutage(err)) {
    log().warn({ err }, 'dependency unavailable');
    ctx.status = 503;
    ctx.set('Retry-After', '5');
    ctx.body = { detail: outageDetail(err) };
    return;
  }
  log().error({ err }, 'unhandled error');
  ctx.status = 500;
  ctx.body = { detail: 'Internal server error', request_id: ctx.state.requestId };
}
