// Per-key request limits (spec "Limits": identify 2 requests per second per IP). A sliding window: at most `limit`
// admitted requests in any `windowMs`. In-process: each API process counts its own traffic (a shared store can
// replace `SlidingWindowCounter` behind the RateCounter interface).
import { RateLimitedError } from '../../lib/errors.js';
import type { AppContext, Middleware } from '../context.js';

export interface RateCounter {
  /** Admits the request (and counts it) unless `limit` requests were admitted within the last `windowMs`. */
  tryHit(key: string, limit: number, windowMs: number, now: number): boolean;
}

export class SlidingWindowCounter implements RateCounter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  tryHit(key: string, limit: number, windowMs: number, now: number): boolean {
    const since = now - windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    const admitted = recent.length < limit;
    if (admitted) recent.push(now);
    this.hits.set(key, recent);
    if (now - this.lastSweep > 60_000) this.sweep(since);
    return admitted;
  }

  private sweep(since: number): void {
    this.lastSweep = since;
    for (const [key, times] of this.hits) if ((times.at(-1) ?? 0) <= since) this.hits.delete(key);
  }
}

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  key?: (ctx: AppContext) => string;
}

export function rateLimit(rule: RateLimitRule, counter: RateCounter = new SlidingWindowCounter()): Middleware {
  return async (ctx, next) => {
    const key = `${rule.name}:${rule.key ? rule.key(ctx) : ctx.state.clientIp}`;
    if (!counter.tryHit(key, rule.limit, rule.windowMs, Date.now())) {
      throw new RateLimitedError(Math.max(1, Math.ceil(rule.windowMs / 1000)));
    }
    return next();
  };
}
