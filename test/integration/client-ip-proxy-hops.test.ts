// Behind two proxies (TRUST_PROXY_HOPS 2, e.g. a CDN then a load balancer): the client is the entry two hops from
// the right; a random entry the client wrote before it changes nothing.
import test from 'ava';
import { identifyBurst, randomIp } from '../helpers/client-ip.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const clock = new RateLimitClock();
const { h, seed } = useSeededHarness(test, {
  worker: false,
  env: { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' },
  rateLimitClock: clock.now,
});

test('a random entry before the client and the fixed proxy does not escape the identify limit', async (t) => {
  const statuses = await clock.held(() => identifyBurst(h().baseUrl, seed.sdk_key, 5, () => `${randomIp()}, 198.51.100.20, 10.0.0.1`));
  t.deepEqual(statuses, [200, 200, 429, 429, 429]);
});

test('distinct clients behind the same proxy are counted apart', async (t) => {
  const statuses = await clock.held(() => identifyBurst(h().baseUrl, seed.sdk_key, 4, (i) => `198.51.100.${30 + i}, 10.0.0.1`));
  t.deepEqual(statuses, [200, 200, 200, 200]);
});
