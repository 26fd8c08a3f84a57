// Per-key request limits (spec "Limits": identify 2 requests per second per IP), counted by the app's counter
// (runtime/rate-counter.ts: Redis when configured, else in-process).
import { RateLimitedError } from '../../errors/http-errors.js';
import type { AppContext, Middleware } from '../context.js';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  key?: (ctx: AppContext) => string;
}

export function rateLimit(rule: RateLimitRule): Middleware {
  return async (ctx, next) => {
    const key = `${rule.name}:${rule.key ? rule.key(ctx) : ctx.state.clientIp}`;
    if (!(await ctx.rateCounter.tryHit(key, rule.limit, rule.windowMs))) {
      throw new RateLimitedError(Math.max(1, Math.ceil(rule.windowMs / 1000)));
    }
    return next();
  };
}
