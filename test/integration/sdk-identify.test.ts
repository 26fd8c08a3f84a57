// POST /api/sdk/identify: attach a user to an install, backfill the attribution, dedup 60 s, 2 requests/s per IP.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { recordClick } from '../../db/clicks.js';
import { countRows } from '../helpers/db.js';
import { request } from '../helpers/http.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const clock = new RateLimitClock();
const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' }, rateLimitClock: clock.now });
let codeId: string;
let ipCounter = 1;
const nextIp = () => `192.0.2.${ipCounter++}`;

test.before(async () => {
  await h.ready();
  codeId = (await h().db('creator_codes').where('code', seed.creator_code).first('id')).id;
});

/** A referred install on `ip`: a link click, then track-install from the same network. */
async function referredInstall(ip: string): Promise<{ deviceId: string; clickId: string }> {
  const c = await recordClick(h().db, {
    appId: seed.app_id,
    campaignId: seed.campaign_id,
    creatorCodeId: codeId,
    code: seed.creator_code,
    source: 'link',
    ip,
    userAgent: IPHONE_UA,
    platform: 'ios',
  });
  const deviceId = randomUUID();
  const res = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', { platform: 'ios', device_id: deviceId });
  if (!res.body.attributed) throw new Error('fixture install not attributed');
  return { deviceId, clickId: c.id };
}

test('with device_id: the exact install; its click creator is backfilled onto the user', async (t) => {
  const ip = nextIp();
  const { deviceId, clickId } = await referredInstall(ip);
  const res = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', {
    app_user_id: 'user-dev-1',
    device_id: deviceId,
    platform: 'ios',
    properties: { plan: 'pro' },
  });
  t.is(res.status, 200);
  t.deepEqual(res.body, { identified: true, app_user_id: 'user-dev-1', attribution_backfilled: true });
  const ua = await h().db('user_attributions').where({ app_id: seed.app_id, app_user_id: 'user-dev-1' }).first();
  t.like(ua, {
    click_id: clickId,
    creator_code_id: codeId,
    campaign_id: seed.campaign_id,
    referral_code: seed.creator_code,
    method: 'ip_device_match',
  });
});

test('the first identify for a click wins: a second user on the same install is not backfilled', async (t) => {
  const ip = nextIp();
  const { deviceId } = await referredInstall(ip);
  const first = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', { app_user_id: 'first-user', device_id: deviceId });
  const second = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', {
    app_user_id: 'second-user',
    device_id: deviceId,
  });
  t.true(first.body.attribution_backfilled);
  t.false(second.body.attribution_backfilled);
  t.is(await countRows(h().db('user_attributions').where({ app_id: seed.app_id, app_user_id: 'second-user' })), 0);
});

test('without device_id: only an unambiguous recent install from the request IP is used', async (t) => {
  const lone = nextIp();
  await referredInstall(lone);
  const res = await sdkClient(h().baseUrl, seed.sdk_key, lone).post('/identify', { app_user_id: 'ip-user-1' });
  t.true(res.body.attribution_backfilled);

  const shared = nextIp();
  await referredInstall(shared);
  await sdkClient(h().baseUrl, seed.sdk_key, shared).post('/track-install', { platform: 'ios', device_id: randomUUID() });
  await new Promise((r) => setTimeout(r, 1100)); // stay under the per-IP rate limit
  const ambiguous = await sdkClient(h().baseUrl, seed.sdk_key, shared).post('/identify', { app_user_id: 'ip-user-2' });
  t.false(ambiguous.body.attribution_backfilled);
});

test('an organic install identifies without backfill; every identify is logged', async (t) => {
  const ip = nextIp();
  const deviceId = randomUUID();
  await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', { platform: 'android', device_id: deviceId });
  const res = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/identify', { app_user_id: 'organic-1', device_id: deviceId });
  t.deepEqual(res.body, { identified: true, app_user_id: 'organic-1', attribution_backfilled: false });
  t.is(await countRows(h().db('identifies').where({ app_id: seed.app_id, app_user_id: 'organic-1' })), 1);
});

test('the same key and user within 60 s is answered from memory with deduplicated: true', async (t) => {
  const first = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', { app_user_id: 'dedup-user' });
  const again = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', { app_user_id: 'dedup-user', properties: { x: 1 } });
  t.false('deduplicated' in first.body);
  t.deepEqual(again.body, { ...first.body, deduplicated: true });
  t.is(await countRows(h().db('identifies').where({ app_id: seed.app_id, app_user_id: 'dedup-user' })), 1);
});

test('an empty app_user_id is 400; a missing one is 422', async (t) => {
  const empty = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', { app_user_id: '  ' });
  t.is(empty.status, 400);
  t.truthy(empty.body.detail);
  const missing = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/identify', { properties: {} });
  t.is(missing.status, 422);
  t.deepEqual(missing.body.detail[0].loc, ['body', 'app_user_id']);
});

test('more than 2 requests per second from one IP get a plain-text 429 page', async (t) => {
  const ip = nextIp();
  const results = await clock.held(() =>
    Promise.all(
      Array.from({ length: 6 }, (_, i) => sdkClient(h().baseUrl, seed.sdk_key, ip).post('/identify', { app_user_id: `burst-${i}` })),
    ),
  );
  const limited = results.filter((r) => r.status === 429);
  t.is(limited.length, 4, results.map((r) => r.status).join(','));
  t.is(limited[0]!.headers.get('content-type')?.split(';')[0], 'text/plain');
  t.regex(limited[0]!.text, /Too Many Requests/);
  t.truthy(limited[0]!.headers.get('retry-after'));
  const elsewhere = await request(h().baseUrl, 'POST', '/api/sdk/identify', {
    token: seed.sdk_key,
    body: { app_user_id: 'other-ip' },
    headers: { 'x-forwarded-for': nextIp() },
  });
  t.is(elsewhere.status, 200);
});
