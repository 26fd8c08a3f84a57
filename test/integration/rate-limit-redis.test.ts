// With REDIS_URL, API processes share one sliding window per IP: the identify limit holds across them. Runs against
// the Redis of REDIS_URL or 127.0.0.1:6379 (the machines this project runs on have one). Under CI (the CI variable
// set, as .ci/run does after starting or installing Redis) a missing Redis fails the shared-limit test; elsewhere it
// is reported as skipped, never as passed.
import test from 'ava';
import { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeServer, createApp, listen } from '../../api/app.js';
import { createLogger } from '../../runtime/logger.js';
import { createRedis, redisReady } from '../../runtime/redis.js';
import { request } from '../helpers/http.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// ava wants every test declared synchronously, so whether Redis answers is asked (in a child process) before declaring.
const REDIS_UP =
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
  import { Redis } from 'ioredis';
  const r = new Redis(process.env.REDIS_URL, { lazyConnect: true, ` +
        `maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  r.on('error', () => undefined);
  try { await r.connect(); process.exit((await r.ping()) === 'PONG' ? 0 : 1); } catch { process.exit(1); }`,
    ],
    { env: { ...process.env, REDIS_URL }, timeout: 10_000 },
  ).status === 0;
const sharedLimitTest = REDIS_UP || process.env.CI ? test : test.skip;

sharedLimitTest('two API processes sharing Redis enforce one identify limit per IP; without Redis each counts alone', async (t) => {
  if (!REDIS_UP) {
    t.fail(`no Redis at ${REDIS_URL}: under CI the shared-limit check must run (.ci/run starts or installs one; or set REDIS_URL)`);
    return;
  }
  const logger = createLogger('silent');
  const redisA = createRedis(REDIS_URL, logger);
  const redisB = createRedis(REDIS_URL, logger);
  t.true(await redisReady(redisA));
  t.true(await redisReady(redisB));
  const make = async (redis?: Redis) => {
    const server = await listen(createApp({ config: h().config, db: h().db, temporal: h().temporal, logger, redis }), 0, '127.0.0.1');
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const a = await make(redisA);
  const b = await make(redisB);
  try {
    // Redis forgets an idle window by its own clock (the key's expiry), so the three calls must fall within one second
    // of the wall clock. A try that took longer (a busy machine) shows nothing about the limit and is made again from
    // another address.
    for (let attempt = 1; ; attempt += 1) {
      const ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      const identify = (base: string, user: string) =>
        request(base, 'POST', '/api/sdk/identify', {
          token: seed.sdk_key,
          body: { app_user_id: user },
          headers: { 'x-forwarded-for': ip },
        });
      const started = Date.now();
      const answers = [await identify(a.url, `${ip}-1`), await identify(b.url, `${ip}-2`), await identify(a.url, `${ip}-3`)];
      const took = Date.now() - started;
      if (took >= 1000 && attempt < 5) {
        t.log(`try ${attempt}: the three calls took ${took} ms, longer than the window; again`);
        continue;
      }
      t.true(took < 1000, `the three calls took ${took} ms in each of ${attempt} tries: the shared window could not be seen`);
      t.deepEqual(
        answers.map((r) => r.status),
        [200, 200, 429],
        'the window is shared: A and B together admitted two',
      );
      t.regex(answers[2]!.text, /Too Many Requests/);
      const keys = await redisA.keys('svc:rl:identify:*');
      t.true(keys.some((k) => k.endsWith(ip)));
      break;
    }
  } finally {
    await closeServer(a.server, 100);
    await closeServer(b.server, 100);
    redisA.disconnect();
    redisB.disconnect();
  }
});

test('when Redis is unreachable the limit still holds per process', async (t) => {
  const logger = createLogger('silent');
  const dead = createRedis('redis://127.0.0.1:1', logger);
  // Each call first waits for the dead Redis to fail: the clock stands still so that three of them fit one window.
  const clock = new RateLimitClock();
  const app = createApp({ config: h().config, db: h().db, temporal: h().temporal, logger, redis: dead, rateLimitClock: clock.now });
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ip = '198.19.0.7';
    const statuses: number[] = [];
    await clock.held(async () => {
      for (let i = 0; i < 3; i++) {
        const res = await request(base, 'POST', '/api/sdk/identify', {
          token: seed.sdk_key,
          body: { app_user_id: `d${i}` },
          headers: { 'x-forwarded-for': ip },
        });
        statuses.push(res.status);
      }
    });
    t.deepEqual(statuses, [200, 200, 429]);
  } finally {
    await closeServer(server, 100);
    dead.disconnect();
  }
});
