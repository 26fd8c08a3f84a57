// First middleware: a request id (honouring a sane inbound X-Request-Id), a child logger carrying it, the client
// IP (X-Forwarded-For only when TRUST_PROXY), and one access-log line per request.
import { randomUUID } from 'node:crypto';
import type { Middleware } from '../context.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestContext: Middleware = async (ctx, next) => {
  const inbound = ctx.get('x-request-id');
  const requestId = SAFE_ID.test(inbound) ? inbound : randomUUID();
  ctx.state.requestId = requestId;
  ctx.set('X-Request-Id', requestId);
  ctx.state.clientIp = ctx.ip;
  ctx.state.log = ctx.deps.logger.child({ reqId: requestId });
  const started = performance.now();
  try {
    await next();
  } finally {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    // The path only: query strings can carry user ids and codes that do not belong in logs.
    ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
  }
};
