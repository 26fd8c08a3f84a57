// First middleware: a request id (honouring a sane inbound X-Request-Id), a per-request logger carrying it
// (created on first use: most requests never log), the client IP (X-Forwarded-For only when TRUST_PROXY), and one
// access-log line per request: debug for successes (the hot SDK paths would otherwise spend a third of their time
// logging; volumes are in /metrics), info for 4xx, warn for 5xx.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../runtime/logger.js';
import type { Middleware } from '../context.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestContext: Middleware = async (ctx, next) => {
  const inbound = ctx.get('x-request-id');
  const requestId = SAFE_ID.test(inbound) ? inbound : randomUUID();
  ctx.state.requestId = requestId;
  ctx.set('X-Request-Id', requestId);
  ctx.state.clientIp = ctx.ip;
  let log: Logger | undefined;
  Object.defineProperty(ctx.state, 'log', {
    get: () => (log ??= ctx.deps.logger.child({ reqId: requestId })),
    configurable: true,
    enumerable: true,
  });
  const started = performance.now();
  try {
    await next();
  } finally {
    const status = ctx.status;
    const level = status >= 500 ? 'warn' : status >= 400 ? 'info' : 'debug';
    if (ctx.deps.logger.isLevelEnabled(level)) {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      // The path only: query strings can carry user ids and codes that do not belong in logs.
      ctx.state.log[level]({ method: ctx.method, path: ctx.path, status, ms }, 'request');
    }
  }
};
