// The edge: the first and only middleware around everything else. It sets a request id (honouring a sane inbound
// X-Request-Id) and the client IP (X-Forwarded-For only when TRUST_PROXY; canonical, so an IPv4 client reached over a
// dual-stack socket as `::ffff:a.b.c.d` is stored, rate-limited and matched as `a.b.c.d`), maps errors to answers (errors.ts),
// records the HTTP metrics, and writes one access-log line: debug for successes (the hot SDK paths would otherwise
// spend a third of their time logging; volumes are in /metrics), info for 4xx, warn for 5xx. One middleware instead
// of three keeps the per-request cost of the hot paths down.
import { randomUUID } from 'node:crypto';
import { BadRequestError } from '../../errors/http-errors.js';
import { normalizeIp } from '../../lib/ip-address.js';
import type { Logger } from '../../runtime/logger.js';
import type { AppContext, Middleware } from '../context.js';
import { finishUnanswered, respondWithError } from './errors.js';
import type { HttpMetrics } from './metrics.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's logger (a child carrying the request id), created on first use: most requests never log. */
export function requestLog(ctx: AppContext): Logger {
  return (ctx.state.log ??= ctx.deps.logger.child({ reqId: ctx.state.requestId }));
}

export function edge(metrics: HttpMetrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const inbound = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(inbound) ? inbound : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.state.clientIp = normalizeIp(ctx.ip);
    ctx.state.viaUntrustedProxy = !ctx.app.proxy && ctx.get('x-forwarded-for') !== '';
    try {
      // A NUL byte can never be an id, a code or a user: refuse it before it reaches a query (PostgreSQL refuses it).
      if (/%00/.test(ctx.url)) throw new BadRequestError('NUL characters (%00) are not accepted in URLs.');
      await next();
      finishUnanswered(ctx);
    } catch (err) {
      respondWithError(ctx, err, () => requestLog(ctx));
    }
    const seconds = (performance.now() - started) / 1000;
    metrics.observe(ctx, seconds);
    const status = ctx.status;
    const level = status >= 500 ? 'warn' : status >= 400 ? 'info' : 'debug';
    if (ctx.deps.logger.isLevelEnabled(level)) {
      // The path only: query strings can carry user ids and codes that do not belong in logs.
      requestLog(ctx)[level]({ method: ctx.method, path: ctx.path, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    }
  };
}
