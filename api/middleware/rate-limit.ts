// Per-key request limits (spec "Limits": identify 2 requests per second per IP). In-process fixed windows: each API
// process counts its own traffic (a shared store can replace `InProcessCounter` behind the same interface).
import { RateLimitedError } from '../../lib/errors.js';
import type { AppContext, Middleware } from '../context.js';

export interface RateCounter {
  /** Adds one hit for `key` in the window containing `now`; returns the count so far in that window. */
  hit(key: string, windowMs: number, now: number): number;
}

export class InProcessCounter implements RateCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  hit(key: string, windowMs: number, now: number): number {
    const start = now - (now % windowMs);
    const current = this.windows.get(key);
    if (current && current.start === start) {
      current.count += 1;
      return current.count;
    }
    this.windows.set(key, { start, count: 1 });
    if (now - this.lastSweep > 10 * windowMs) this.sweep(start);
    return 1;
  }

  private sweep(currentStart: number): void {
    this.lastSweep = currentStart;
    for (const [key, w] of this.windows) if (w.start < currentStart) this.windows.delete(key);
  }
}

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  key?: (ctx: AppContext) => string;
}

export function rateLimit(rule: RateLimitRule, counter: RateCounter = new InProcessCounter()): Middleware {
  return async (ctx, next) => {
    const key = `${rule.name}:${rule.key ? rule.key(ctx) : ctx.state.clientIp}`;
    if (counter.hit(key, rule.windowMs, Date.now()) > rule.limit) {
      throw new RateLimitedError(Math.max(1, Math.ceil(rule.windowMs / 1000)));
    }
    return next();
  };
}
