// POST /api/sdk/track-install: decided once per install; exact link attribution, IP + device matching, organic.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { recordClick } from '../../db/clicks.js';
import { hintsFromUserAgent } from '../../lib/device.js';
import { countRows } from '../helpers/db.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
let codeId: string;
let ipCounter = 1;
const nextIp = () => `198.51.100.${ipCounter++}`;

test.before(async () => {
  await h.ready();
  codeId = (await h().db('creator_codes').where('code', seed.creator_code).first('id')).id;
});

async function click(ip: string, hints: { language?: string; timezone?: string; screen?: string; ua?: string; minutesAgo?: number } = {}) {
  const ua = hints.ua ?? IPHONE_UA;
  const c = await recordClick(h().db, {
    appId: seed.app_id,
    campaignId: seed.campaign_id,
    creatorCodeId: codeId,
    code: seed.creator_code,
    source: 'link',
    ip,
    userAgent: ua,
    ...hintsFromUserAgent(ua),
    platform: hintsFromUserAgent(ua).platform ?? null,
    language: hints.language ?? null,
    timezone: hints.timezone ?? null,
    screen: hints.screen ?? null,
  });
  if (hints.minutesAgo)
    await h()
      .db('clicks')
      .where('id', c.id)
      .update({ clicked_at: h().db.raw(`now() - make_interval(mins => ?)`, [hints.minutesAgo]) });
  return c;
}

const iphone = (extra: Record<string, unknown> = {}) => ({
  platform: 'ios',
  device_id: randomUUID(),
  os_version: '17.4.1',
  language: 'en-US',
  timezone: 'Europe/Berlin',
  screen_resolution: '1179x2556',
  ...extra,
});

test('link_param: referral_code + click_id attribute exactly, and the response carries every field', async (t) => {
  const c = await click(nextIp());
  const res = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post(
    '/track-install',
    iphone({ referral_code: seed.creator_code.toLowerCase(), click_id: c.id }),
  );
  t.is(res.status, 200);
  t.like(res.body, {
    attributed: true,
    referral_code: seed.creator_code,
    attribution_method: 'link_param',
    click_id: c.id,
    install_recorded: true,
  });
  t.is(res.body.clicked_at, new Date(c.clicked_at).toISOString());
  t.is(typeof res.body.message, 'string');
  const row = await h().db('clicks').where('id', c.id).first();
  t.truthy(row.claimed_at);
});

test('camelCase fields are accepted on track-install', async (t) => {
  const c = await click(nextIp());
  const res = await sdkClient(h().baseUrl, seed.sdk_key).post('/track-install', {
    platform: 'android',
    deviceId: randomUUID(),
    referralCode: seed.creator_code,
    clickId: c.id,
    osVersion: '14',
  });
  t.like(res.body, { attributed: true, attribution_method: 'link_param', click_id: c.id });
});

test('ip_device_match: a click from the same IP whose hints agree; the most recent unclaimed click wins', async (t) => {
  const ip = nextIp();
  const older = await click(ip, { language: 'en', minutesAgo: 30 });
  const newer = await click(ip, { language: 'en-GB', minutesAgo: 5 });
  const first = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', iphone());
  t.like(first.body, { attributed: true, attribution_method: 'ip_device_match', click_id: newer.id, install_recorded: true });
  const second = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', iphone());
  t.like(second.body, { attributed: true, attribution_method: 'ip_device_match', click_id: older.id });
  const third = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', iphone());
  t.like(third.body, { attributed: false, install_recorded: true });
  t.regex(third.body.message, /no matching/i);
});

const mismatches: [string, Parameters<typeof click>[1], Record<string, unknown>][] = [
  ['platform (Android click, iOS install)', { ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)' }, {}],
  ['OS version', {}, { os_version: '16.2' }],
  ['language', { language: 'fr-FR' }, {}],
  ['timezone', { timezone: 'America/New_York' }, {}],
  ['screen', { screen: '1080x1920' }, {}],
];
for (const [label, clickHints, installExtra] of mismatches) {
  test(`ip_device_match refuses a click whose ${label} disagrees`, async (t) => {
    const ip = nextIp();
    await click(ip, clickHints);
    const res = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', iphone(installExtra));
    t.is(res.body.attributed, false);
  });
}

test('hints only one side carries are ignored; screen matches in either orientation', async (t) => {
  const ip = nextIp();
  await click(ip, { screen: '2556x1179' });
  const res = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', {
    platform: 'ios',
    device_id: randomUUID(),
    screen_resolution: '1179x2556',
  });
  t.is(res.body.attributed, true);
});

test.serial('no click from another IP, outside the window, or of an inactive campaign', async (t) => {
  const ip = nextIp();
  await click(nextIp());
  t.is((await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', iphone())).body.attributed, false);
  const stale = nextIp();
  await click(stale, { minutesAgo: 73 * 60 });
  t.is((await sdkClient(h().baseUrl, seed.sdk_key, stale).post('/track-install', iphone())).body.attributed, false);
  const paused = nextIp();
  await click(paused);
  await h().db('campaigns').where('id', seed.campaign_id).update({ status: 'paused' });
  try {
    t.is((await sdkClient(h().baseUrl, seed.sdk_key, paused).post('/track-install', iphone())).body.attributed, false);
  } finally {
    await h().db('campaigns').where('id', seed.campaign_id).update({ status: 'active' });
  }
});

test('decided once per device: a repeat is re_claimed with the same answer, recorded false, taking no other click', async (t) => {
  const ip = nextIp();
  const c1 = await click(ip);
  const body = iphone();
  const first = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', body);
  t.like(first.body, { attributed: true, click_id: c1.id, install_recorded: true });
  t.false('re_claimed' in first.body);
  await click(ip);
  const again = await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', body);
  t.deepEqual(again.body, { ...first.body, install_recorded: false, re_claimed: true });
  t.is(await countRows(h().db('installs').where({ app_id: seed.app_id, device_id: body.device_id })), 1);
  t.is(await countRows(h().db('clicks').where({ ip }).whereNull('claimed_at')), 1, 'the second click stays unclaimed');
});

test('an organic device seen before: install_recorded false', async (t) => {
  const body = iphone();
  const ip = nextIp();
  t.like((await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', body)).body, { attributed: false, install_recorded: true });
  t.like((await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', body)).body, {
    attributed: false,
    install_recorded: false,
  });
});

test('two concurrent installs from two devices cannot both claim one click', async (t) => {
  for (let round = 0; round < 5; round++) {
    const ip = nextIp();
    const only = await click(ip);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', iphone())),
    );
    const winners = results.filter((r) => r.body.attributed);
    t.is(winners.length, 1, JSON.stringify(results.map((r) => [r.status, r.body])));
    t.is(winners[0]!.body.click_id, only.id);
    t.true(results.every((r) => r.status === 200));
  }
});

test('the install row keeps device, IP and attribution for the funnel', async (t) => {
  const ip = nextIp();
  const c = await click(ip);
  const body = iphone({ device_brand: 'Apple', device_model: 'iPhone15,2' });
  await sdkClient(h().baseUrl, seed.sdk_key, ip).post('/track-install', body);
  const row = await h().db('installs').where({ device_id: body.device_id }).first();
  t.like(row, {
    ip,
    platform: 'ios',
    device_brand: 'Apple',
    attributed: true,
    click_id: c.id,
    creator_code_id: codeId,
    campaign_id: seed.campaign_id,
    referral_code: seed.creator_code,
  });
});

// The Play Install Referrer's times (docs/client-api.md "track-install"): stored on the install when it is recorded.
const pixel = (extra: Record<string, unknown> = {}) => ({ platform: 'android', device_id: randomUUID(), os_version: '14', ...extra });
const referrerTimes = (deviceId: string) =>
  h()
    .db('installs')
    .where({ app_id: seed.app_id, device_id: deviceId })
    .first('referrer_click_at', 'install_begin_at', 'install_begin_server_at');

test('install_referrer times are stored on the install as timestamps; 0 is unknown (null); camelCase is accepted', async (t) => {
  const body = pixel({
    install_referrer: {
      referrer_click_timestamp_seconds: 1_790_000_000,
      install_begin_timestamp_seconds: 1_790_000_042,
      install_begin_timestamp_server_seconds: 1_790_000_040,
    },
  });
  t.is((await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', body)).status, 200);
  t.deepEqual(await referrerTimes(body.device_id), {
    referrer_click_at: new Date(1_790_000_000_000),
    install_begin_at: new Date(1_790_000_042_000),
    install_begin_server_at: new Date(1_790_000_040_000),
  });

  const camel = {
    platform: 'android',
    deviceId: randomUUID(),
    installReferrer: { referrerClickTimestampSeconds: 0, installBeginTimestampSeconds: 1_790_000_100 },
  };
  t.is((await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', camel)).status, 200);
  t.deepEqual(await referrerTimes(camel.deviceId), {
    referrer_click_at: null,
    install_begin_at: new Date(1_790_000_100_000),
    install_begin_server_at: null,
  });
});

test('install_referrer: only the first track-install of a device records the times', async (t) => {
  const body = pixel({ install_referrer: { install_begin_timestamp_seconds: 1_790_000_200 } });
  await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', body);
  const again = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', {
    ...body,
    install_referrer: { install_begin_timestamp_seconds: 1_790_000_999 },
  });
  t.like(again.body, { install_recorded: false });
  t.deepEqual((await referrerTimes(body.device_id))!.install_begin_at, new Date(1_790_000_200_000));
});

test('install_referrer absent: null times; sent by iOS: accepted and kept as sent (click_injection reads Android only)', async (t) => {
  const android = pixel();
  t.is((await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', android)).status, 200);
  t.deepEqual(await referrerTimes(android.device_id), { referrer_click_at: null, install_begin_at: null, install_begin_server_at: null });
  const ios = iphone({ install_referrer: { install_begin_timestamp_seconds: 1_790_000_300 } });
  const res = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', ios);
  t.like(res.body, { attributed: false, install_recorded: true });
  t.like(await h().db('installs').where({ device_id: ios.device_id }).first(), {
    platform: 'ios',
    install_begin_at: new Date(1_790_000_300_000),
    referrer_click_at: null,
  });
});

const badTimes: [string, unknown][] = [
  ['negative', -1],
  ['not an integer', 1_790_000_000.5],
  ['a string', '1790000000'],
  ['after 2100', 4_102_444_801],
];
for (const [label, value] of badTimes) {
  test(`install_referrer: a time that is ${label} is a 422 naming the field, and nothing is recorded`, async (t) => {
    const body = pixel({ installReferrer: { referrer_click_timestamp_seconds: 1_790_000_000, installBeginTimestampServerSeconds: value } });
    const res = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', body);
    t.is(res.status, 422);
    t.deepEqual(
      res.body.detail.map((d: { loc: unknown[] }) => d.loc),
      [['body', 'install_referrer', 'install_begin_timestamp_server_seconds']],
    );
    t.is(await countRows(h().db('installs').where({ device_id: body.device_id })), 0);
  });
}

test('install_referrer must be an object', async (t) => {
  const res = await sdkClient(h().baseUrl, seed.sdk_key, nextIp()).post('/track-install', pixel({ install_referrer: 'utm_source=x' }));
  t.is(res.status, 422);
  t.deepEqual(res.body.detail[0].loc, ['body', 'install_referrer']);
});
