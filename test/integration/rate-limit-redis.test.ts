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
  const r = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
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
    const ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const identify = (base: string, user: string) =>
      request(base, 'POST', '/api/sdk/identify', { token: seed.sdk_key, body: { app_user_id: user }, headers: { 'x-forwarded-for': ip } });
    t.is((await identify(a.url, 'r1')).status, 200);
    t.is((await identify(b.url, 'r2')).status, 200);
    const third = await identify(a.url, 'r3');
    t.is(third.status, 429, 'the window is shared: A and B together admitted two');
    t.regex(third.text, /Too Many Requests/);
    const keys = await redisA.keys('svc:rl:identify:*');
    t.true(keys.some((k) => k.endsWith(ip)));
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
  const server = await listen(createApp({ config: h().config, db: h().db, temporal: h().temporal, logger, redis: dead }), 0, '127.0.0.1');
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ip = '198.19.0.7';
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (
          await request(base, 'POST', '/api/sdk/identify', {
            token: seed.sdk_key,
            body: { app_user_id: `d${i}` },
            headers: { 'x-forwarded-for': ip },
          })
        ).status,
      );
    }
    t.deepEqual(statuses, [200, 200, 429]);
  } finally {
    await closeServer(server, 100);
    dead.disconnect();
  }
});
