// The Redis that shared-limit tests need (REDIS_URL, else the machine's on 127.0.0.1:6379). A missing Redis fails
// the test with a message saying so: a test that passed without the service it checks would prove nothing.
import type { ExecutionContext } from 'ava';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Fails the test unless Redis answers; `.ci/run` starts (or installs) one. */
export async function requireRedis(t: ExecutionContext): Promise<boolean> {
  if (await reachable()) return true;
  t.fail(`Redis is needed at ${TEST_REDIS_URL} and did not answer (start redis-server, or set REDIS_URL)`);
  return false;
}
