// The single error path (Koa docs, error-handling.md): domain errors become the spec's `{"detail": ...}` bodies,
// rate limiting a plain-text page, anything unexpected a generic 500 that is logged but never shown.
import { AppError, RateLimitedError } from '../../lib/errors.js';
import type { Middleware } from '../context.js';

export const errorHandler: Middleware = async (ctx, next) => {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { detail: 'Not Found' };
    }
  } catch (err) {
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
      ctx.body = { detail: err.detail };
      return;
    }
    const status = (err as { status?: number; expose?: boolean }).status;
    if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
      ctx.status = status;
      ctx.body = { detail: (err as Error).message };
      return;
    }
    ctx.state.log?.error({ err }, 'unhandled error');
    ctx.status = 500;
    ctx.body = { detail: 'Internal server error', request_id: ctx.state.requestId };
  }
};
