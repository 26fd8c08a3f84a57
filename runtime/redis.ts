// The optional Redis client (REDIS_URL): shared rate-limit windows across API processes. Commands fail fast while
// it is away (callers fall back), and it reconnects on its own.
import { Redis } from 'ioredis';
import type { Logger } from './logger.js';

export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, lazyConnect: false });
  let warned = false;
  redis.on('error', (err) => {
    if (!warned) logger.warn({ err }, 'redis unavailable');
    warned = true;
  });
  redis.on('ready', () => {
    warned = false;
  });
  return redis;
}

/** Waits (bounded) for the first connection, so a starting API process shares limits from its first request. */
export function redisReady(redis: Redis, timeoutMs = 2000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    function onReady() {
      clearTimeout(timer);
      resolve(true);
    }
    redis.once('ready', onReady);
  });
}
