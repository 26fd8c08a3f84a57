// Behind one proxy (TRUST_PROXY on, TRUST_PROXY_HOPS 1): the client IP is the entry our proxy appended, the
// rightmost of X-Forwarded-For. Whatever a client writes to the left of it decides nothing: not the identify rate
// limit, not the IP a click or an install is recorded with (so no one can fake an IP + device match).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { identifyBurst, randomIp } from '../helpers/client-ip.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const clock = new RateLimitClock();
const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' }, rateLimitClock: clock.now });

test('a random leftmost entry per request does not escape the identify limit: the proxy-appended address decides', async (t) => {
  const statuses = await clock.held(() => identifyBurst(h().baseUrl, seed.sdk_key, 5, () => `${randomIp()}, 198.51.100.7`));
  t.deepEqual(statuses, [200, 200, 429, 429, 429]);
});

test('without the header the connection address is the client', async (t) => {
  const statuses = await clock.held(() => identifyBurst(h().baseUrl, seed.sdk_key, 3, () => undefined));
  t.deepEqual(statuses, [200, 200, 429]);
});

test('installs and clicks record the trusted hop, never the forged entry', async (t) => {
  const deviceId = randomUUID();
  await request(h().baseUrl, 'POST', '/api/sdk/track-install', {
    token: seed.sdk_key,
    headers: { 'x-forwarded-for': '192.0.2.200, 198.51.100.9' },
    body: { platform: 'ios', device_id: deviceId },
  });
  t.like(await h().db('installs').where({ device_id: deviceId }).first(), { ip: '198.51.100.9', ip_via_untrusted_proxy: false });
  const slug = (await h().db('apps').where('id', seed.app_id).first('slug')).slug;
  await request(h().baseUrl, 'GET', `/${slug}/${seed.creator_code}`, { headers: { 'x-forwarded-for': '192.0.2.201, 198.51.100.10' } });
  const click = await h().db('clicks').where({ app_id: seed.app_id }).orderBy('clicked_at', 'desc').first();
  t.is(click.ip, '198.51.100.10');
});

test('a forwarded IPv4-mapped or uncompressed IPv6 address is stored in its canonical form', async (t) => {
  const cases: [string, string][] = [
    ['::ffff:198.51.100.11', '198.51.100.11'],
    ['::FFFF:C633:640C', '198.51.100.12'],
    ['2001:DB8:0:0:0:0:0:7', '2001:db8::7'],
  ];
  for (const [forwarded, stored] of cases) {
    const deviceId = randomUUID();
    await request(h().baseUrl, 'POST', '/api/sdk/track-install', {
      token: seed.sdk_key,
      headers: { 'x-forwarded-for': forwarded },
      body: { platform: 'ios', device_id: deviceId },
    });
    t.is((await h().db('installs').where({ device_id: deviceId }).first()).ip, stored, forwarded);
  }
});
