// The client IP comes from the connection; X-Forwarded-For is believed only when TRUST_PROXY is on (the other
// test files run with it on). A body can never set the IP or the User-Agent.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { closeServer, listen } from '../../api/app.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

test('without TRUST_PROXY a forged X-Forwarded-For and body fields do not set the IP or User-Agent', async (t) => {
  const deviceId = randomUUID();
  await request(h().baseUrl, 'POST', '/api/sdk/track-install', {
    token: seed.sdk_key,
    headers: { 'x-forwarded-for': '203.0.113.99', 'user-agent': 'RealAgent/1.0' },
    body: { platform: 'ios', device_id: deviceId, ip: '198.51.100.1', user_agent: 'Forged/9' },
  });
  const install = await h().db('installs').where({ device_id: deviceId }).first();
  t.regex(install.ip, /^(::ffff:)?127\.0\.0\.1$|^::1$/);
  t.is(install.user_agent, 'RealAgent/1.0');
  t.true(install.ip_via_untrusted_proxy, "the install says its address may be a proxy's: the IP fraud signals are off for it");

  const slug = (await h().db('apps').where('id', seed.app_id).first('slug')).slug;
  await request(h().baseUrl, 'GET', `/${slug}/${seed.creator_code}`, { headers: { 'x-forwarded-for': '203.0.113.98' } });
  const click = await h().db('clicks').where({ app_id: seed.app_id }).orderBy('clicked_at', 'desc').first();
  t.not(click.ip, '203.0.113.98');
});

test('an IPv4 client reaching a dual-stack socket (seen as ::ffff:127.0.0.1) is stored as its IPv4 address', async (t) => {
  // The same app on `::`, which accepts IPv4 connections as IPv4-mapped IPv6 addresses.
  const server = await listen(h().app, 0, '::');
  t.teardown(() => closeServer(server, 1000));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deviceId = randomUUID();
  const res = await request(baseUrl, 'POST', '/api/sdk/track-install', {
    token: seed.sdk_key,
    body: { platform: 'android', device_id: deviceId },
  });
  t.is(res.status, 200);
  t.like(await h().db('installs').where({ device_id: deviceId }).first(), { ip: '127.0.0.1', ip_via_untrusted_proxy: false });

  const slug = (await h().db('apps').where('id', seed.app_id).first('slug')).slug;
  const agent = `DualStack/${deviceId}`;
  await request(baseUrl, 'GET', `/${slug}/${seed.creator_code}`, { headers: { 'user-agent': agent } });
  const click = await h().db('clicks').where({ app_id: seed.app_id, user_agent: agent }).first();
  t.is(click.ip, '127.0.0.1');
});
