// The counters behind the API's rate limits: a sliding window admits at most `limit` requests in any `windowMs`.
// With REDIS_URL the windows live in Redis and every API process shares them; otherwise each process counts its own
// traffic. Redis trouble falls back to the process's own count.
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';

export interface RateCounter {
  /** Admits the request (and counts it) unless `limit` requests were admitted within the last `windowMs`. */
  tryHit(key: string, limit: number, windowMs: number, now: number): Promise<boolean>;
}

export class SlidingWindowCounter implements RateCounter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  tryHitSync(key: string, limit: number, windowMs: number, now: number): boolean {
    const since = now - windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    const admitted = recent.length < limit;
    if (admitted) recent.push(now);
    this.hits.set(key, recent);
    if (now - this.lastSweep > 60_000) this.sweep(since);
    return admitted;
  }

  tryHit(key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
    return Promise.resolve(this.tryHitSync(key, limit, windowMs, now));
  }

  private sweep(since: number): void {
    this.lastSweep = since;
    for (const [key, times] of this.hits) if ((times.at(-1) ?? 0) <= since) this.hits.delete(key);
  }
}

// Atomic in Redis: drop hits older than the window, admit and record the hit only while under the limit.
const SLIDING_WINDOW_LUA = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

export class RedisSlidingWindowCounter implements RateCounter {
  private seq = 0;
  private readonly fallback = new SlidingWindowCounter();

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly prefix = 'svc:rl:',
  ) {}

  async tryHit(key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
    try {
      const member = `${now}:${process.pid}:${(this.seq += 1)}`;
      const admitted = await this.redis.eval(SLIDING_WINDOW_LUA, 1, `${this.prefix}${key}`, now, windowMs, limit, member);
      return admitted === 1;
    } catch (err) {
      this.logger.warn({ err }, 'rate limit store unavailable: counting in this process');
      return this.fallback.tryHitSync(key, limit, windowMs, now);
    }
  }
}
