// The SDK package (@svc/sdk) as the app, against the real service: rules 1, 2, 5, 6, 11, 13 and 14 of the spec's
// "Client-side rules pinned by the wire contract", single-flight on a double mount, and an event id that survives a
// killed process. Only the network can be cut (per path) and the storage is shared between "processes".
import test from 'ava';
import Svc, { derivedEventId, SvcError } from '@svc/sdk/web';
import { singletonKey } from '../../lib/event-dedup.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { freshIp, nativeApp, recordingStorage, tapReferralLink, UUID_V4, webApp } from '../helpers/sdk-app.js';
import { useHarness } from '../helpers/harness.js';

const h = useHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
const WEB_URL = 'https://app.example.test/start?utm_source=ig#pricing';
let app: SeededApp & { slug: string };

test.before(async () => {
  await h.ready();
  const seeded = await seedApp(h().db);
  const [row] = await h().db('apps').where('id', seeded.app_id).update({ web_url: WEB_URL }).returning('slug');
  app = { ...seeded, slug: row.slug };
});

const LISTED_KEYS = [
  '@svc/attribution',
  '@svc/svc_code',
  '@svc/app_user_id',
  '@svc/initialized',
  '@svc/install_id',
  '@svc/access',
  '@svc/launch_code',
  '@svc/reported_purchases',
];

test('rule 1: initialize posts init, persists @svc/initialized and is the only init-time call that throws', async (t) => {
  const a = webApp(h().baseUrl, app.sdk_key, { ip: freshIp(), config: { appVersion: '2.3.0', runtime: 'pwa' } });
  const init = await a.client.initialize(a.config);
  t.like(init, { app_id: app.app_id, initialized: true, store_direct: false, attribution_window_hours: 72 });
  t.deepEqual(a.net.calls[0], {
    method: 'POST',
    path: '/sdk/init',
    body: { app_version: '2.3.0', sdk_version: '1.0.1', platform: 'web', sdk_name: 'web', runtime: 'pwa' },
  });
  t.is(await a.storage.getItem('@svc/initialized'), 'true');

  const wrongKey = webApp(h().baseUrl, 'it_not_a_real_key', { ip: freshIp() });
  const err = await t.throwsAsync(wrongKey.client.initialize(wrongKey.config), { instanceOf: SvcError });
  t.is(err.status, 401);
  t.is(await wrongKey.storage.getItem('@svc/initialized'), null);
  // Everything else stays fail-soft, even without a successful init.
  t.like(await wrongKey.client.checkAttribution(), { attributed: false });
  t.deepEqual(await wrongKey.client.getActiveCampaigns(), []);
});

test(
  'rules 2, 6, 13: a tap on a referral link, the launch URL ' + 'captured and cleaned, attribution cached and provider attributes set',
  async (t) => {
    const ip = freshIp();
    const launchUrl = await tapReferralLink(h().baseUrl, app.slug, app.creator_code, ip);
    const clickId = new URL(launchUrl).searchParams.get('svc_click');
    t.truthy(clickId);
    const attributes: unknown[] = [];
    const a = webApp(h().baseUrl, app.sdk_key, {
      ip,
      url: launchUrl,
      config: {
        setSubscriberAttributes: (x) => {
          attributes.push(x);
        },
      },
    });
    await a.client.initialize(a.config);
    // cleanUrl (default true): only svc_code and svc_click go; the other parameter and the hash stay.
    t.deepEqual(a.url.replaced, [WEB_URL]);
    t.deepEqual(JSON.parse((await a.storage.getItem('@svc/launch_code'))!), { code: app.creator_code, clickId });

    const attribution = await a.client.checkAttribution();
    t.like(attribution, {
      attributed: true,
      referral_code: app.creator_code,
      attribution_method: 'link_param',
      click_id: clickId,
      install_recorded: true,
    });
    const sent = a.net.calls.find((c) => c.path === '/sdk/track-install')!.body;
    t.like(sent, { platform: 'web', referral_code: app.creator_code, click_id: clickId, timezone: 'Europe/Berlin', language: 'de-DE' });
    t.regex(sent.device_id, UUID_V4);
    t.is(await a.storage.getItem('@svc/install_id'), sent.device_id, 'the install id is persisted');
    t.deepEqual(JSON.parse((await a.storage.getItem('@svc/attribution'))!), attribution);
    t.is(await a.client.getReferralCode(), app.creator_code);
    t.deepEqual(attributes, [{ svc_code: app.creator_code, svc_referral: 'true' }], 'svc_referral is the string "true"');

    const before = a.net.calls.length;
    t.deepEqual(await a.client.checkAttribution(), attribution, 'answered from @svc/attribution');
    t.is(a.net.calls.length, before, 'no second track-install');
  },
);

test('rule 2: an organic answer is cached too; a failure answers attributed false and stores nothing', async (t) => {
  const a = webApp(h().baseUrl, app.sdk_key, { ip: freshIp() });
  await a.client.initialize(a.config);
  a.net.down.add('/sdk/track-install');
  const failed = await a.client.checkAttribution();
  t.is(failed.attributed, false);
  t.regex(failed.message!, /network error/);
  t.is(await a.storage.getItem('@svc/attribution'), null, 'nothing stored on failure');

  a.net.down.clear();
  const organic = await a.client.checkAttribution();
  t.like(organic, { attributed: false, install_recorded: true });
  t.deepEqual(JSON.parse((await a.storage.getItem('@svc/attribution'))!), organic);
  const before = a.net.calls.length;
  await a.client.checkAttribution();
  t.is(a.net.calls.length, before, 'the organic result is cached as well');
});

test('rule 13: a launch code replaces a stored organic result; captureLaunchCode false and cleanUrl false are honoured', async (t) => {
  const ip = freshIp();
  const storage = recordingStorage();
  const first = webApp(h().baseUrl, app.sdk_key, { ip, storage });
  await first.client.initialize(first.config);
  t.like(await first.client.checkAttribution(), { attributed: false });

  // The same browser opens a referral link later: captured, but the URL is left alone (cleanUrl false).
  const launchUrl = await tapReferralLink(h().baseUrl, app.slug, app.creator_code, freshIp());
  const noCapture = webApp(h().baseUrl, app.sdk_key, { ip, storage, url: launchUrl, config: { captureLaunchCode: false } });
  await noCapture.client.initialize(noCapture.config);
  t.like(await noCapture.client.checkAttribution(), { attributed: false }, 'captureLaunchCode false: the organic result stays');

  const second = webApp(h().baseUrl, app.sdk_key, { ip, storage, url: launchUrl, config: { cleanUrl: false } });
  await second.client.initialize(second.config);
  t.deepEqual(second.url.replaced, [], 'cleanUrl false leaves the address bar alone');
  t.like(await second.client.checkAttribution(), { attributed: true, attribution_method: 'link_param', referral_code: app.creator_code });
});

/** A React Native app on Android, initialized with `config` (its install referrer); answers its track-install body. */
async function androidInstall(config: Record<string, unknown>) {
  const native = nativeApp(freshIp());
  await native.client.initialize({
    apiKey: app.sdk_key,
    baseUrl: `${h().baseUrl}/api`,
    storage: native.store,
    platform: 'android',
    ...config,
  });
  const result = await native.client.checkAttribution();
  return { result, sent: native.net.calls.find((c) => c.path === '/sdk/track-install')!.body };
}

async function tappedClickId(): Promise<string> {
  const launchUrl = await tapReferralLink(h().baseUrl, app.slug, app.creator_code, freshIp());
  return new URL(launchUrl).searchParams.get('svc_click')!;
}

test('rule 13: the Android install-referrer string carries a code; a "(not set)" value is no code', async (t) => {
  const clickId = await tappedClickId();
  const { result } = await androidInstall({
    installReferrer: `utm_source=creator&svc_code=${app.creator_code.toLowerCase()}&svc_click=${clickId}`,
  });
  t.like(result, { attributed: true, attribution_method: 'link_param', referral_code: app.creator_code });

  const { sent } = await androidInstall({ installReferrer: 'utm_source=(not set)&svc_code=(not set)' });
  t.false('referral_code' in sent, JSON.stringify(sent));
});

test("rule 13: the Play Install Referrer's times go with track-install onto the install; a refused value is sent as 0", async (t) => {
  const clickId = await tappedClickId();
  const { result, sent } = await androidInstall({
    installReferrer: `svc_code=${app.creator_code}&svc_click=${clickId}`,
    installReferrerTimes: {
      referrerClickTimestampSeconds: 1_790_000_000,
      installBeginTimestampSeconds: 1_790_000_042.5, // a broken plugin: sent as 0, never a 422 that loses the install
      installBeginTimestampServerSeconds: 1_790_000_040,
    },
  });
  t.like(result, { attributed: true, attribution_method: 'link_param' });
  t.deepEqual(sent.install_referrer, {
    referrer_click_timestamp_seconds: 1_790_000_000,
    install_begin_timestamp_seconds: 0,
    install_begin_timestamp_server_seconds: 1_790_000_040,
  });
  t.like(await h().db('installs').where({ app_id: app.app_id, device_id: sent.device_id }).first(), {
    referrer_click_at: new Date(1_790_000_000_000),
    install_begin_at: null,
    install_begin_server_at: new Date(1_790_000_040_000),
  });

  const without = await androidInstall({ installReferrerTimes: { installBeginTimestampSeconds: 0 } });
  t.false('install_referrer' in without.sent, 'no time known: not sent');
});

test('single flight: a double mount sends one init and one track-install', async (t) => {
  const a = webApp(h().baseUrl, app.sdk_key, { ip: freshIp() });
  const [i1, i2] = await Promise.all([a.client.initialize(a.config), a.client.initialize(a.config)]);
  t.is(i1, i2);
  const [c1, c2] = await Promise.all([a.client.checkAttribution(), a.client.checkAttribution()]);
  t.deepEqual(c1, c2);
  t.deepEqual(a.net.paths(), ['/sdk/init', '/sdk/track-install']);
  const installs = await h()
    .db('installs')
    .where({ app_id: app.app_id, device_id: (await a.storage.getItem('@svc/install_id'))! });
  t.is(installs.length, 1);
});

test("rule 5: event ids are UUID v4; funnel milestones derive theirs from the server's dedup digest", async (t) => {
  const a = webApp(h().baseUrl, app.sdk_key, { ip: freshIp() });
  await a.client.initialize(a.config);
  const user = `user-${freshIp()}`;
  const identified = await a.client.identify(user);
  t.like(identified, { identified: true, app_user_id: user });

  const viewed = await a.client.trackEvent({ eventType: 'paywall_viewed', properties: { screen: 'home' } });
  t.true(viewed.tracked);
  t.regex(viewed.event_id!, UUID_V4);
  t.like(a.net.calls.at(-1)!.body, { eventType: 'paywall_viewed', appUserId: user, eventId: viewed.event_id, platform: 'web' });

  const props = { plan: 'annual', trial_days: 7 };
  const trial = await a.client.trackEvent({ eventType: 'trial_started', properties: props });
  t.regex(trial.event_id!, UUID_V4);
  t.is(trial.event_id, derivedEventId('trial_started', user, { trial_days: 7, plan: 'annual' }) ?? undefined, 'key order does not matter');
  const key = singletonKey({ eventType: 'trial_started', appUserId: user, properties: props })!;
  t.is(trial.event_id!.replace(/-/g, '').slice(0, 12), key.slice(0, 12), "the server's singleton digest, laid out as a UUID");
  // Another install of the same user sends the same id: the server keeps one.
  const other = webApp(h().baseUrl, app.sdk_key, { ip: freshIp() });
  await other.client.initialize(other.config);
  const again = await other.client.trackEvent({
    eventType: 'trial_started',
    appUserId: user,
    properties: { trial_days: 7, plan: 'annual' },
  });
  t.like(again, { tracked: true, event_id: trial.event_id, duplicate: true, dedup_reason: 'event_id' });
});

test('idempotency: an event id is persisted before its first send and reused after a killed process', async (t) => {
  const ip = freshIp();
  const storage = recordingStorage();
  const first = webApp(h().baseUrl, app.sdk_key, { ip, storage });
  await first.client.initialize(first.config);
  await first.client.identify(`killed-${ip}`);
  let outboxAtSend: string | null = null;
  first.net.beforeSend = async (path) => {
    if (path === '/sdk/event') outboxAtSend = await storage.getItem('@svc/outbox');
  };
  first.net.loseAnswer.add('/sdk/event'); // reaches the service; the process dies before the answer
  const lost = await first.client.trackEvent({ eventType: 'onboarding_done', properties: { step: 3 } });
  t.false(lost.tracked);
  t.truthy(outboxAtSend, 'persisted before the first send');
  t.deepEqual(Object.keys(JSON.parse(outboxAtSend!).events), [lost.event_id]);

  const restarted = webApp(h().baseUrl, app.sdk_key, { ip, storage });
  await restarted.client.initialize(restarted.config); // sends what the dead process left
  const retry = restarted.net.calls.find((c) => c.path === '/sdk/event')!;
  t.is(retry.body.eventId, lost.event_id, 'the same event id on the retry');
  t.is(await storage.getItem('@svc/outbox'), null, 'answered: the outbox is empty');
  const rows = await h().db('sdk_events').where({ app_id: app.app_id, event_id: lost.event_id });
  t.is(rows.length, 1, 'recorded once');
});

test(
  'rule 11 (web): only the listed @svc/* keys; ' + 'clearAttribution drops attribution, code and launch code, keeps the user id',
  async (t) => {
    const ip = freshIp();
    const launchUrl = await tapReferralLink(h().baseUrl, app.slug, app.creator_code, ip);
    const a = webApp(h().baseUrl, app.sdk_key, { ip, url: launchUrl });
    await a.client.initialize(a.config);
    await a.client.checkAttribution();
    await a.client.identify(`keys-${ip}`);
    await a.client.trackEvent({ eventType: 'paywall_viewed' });
    await a.client.checkAccess();
    const stored = await a.storage.dump();
    t.deepEqual(
      Object.keys(stored).filter((k) => !LISTED_KEYS.includes(k)),
      [],
      'nothing but the listed keys remains',
    );
    t.true([...a.storage.keys].every((k) => k.startsWith('@svc/')));
    await a.client.clearAttribution();
    const after = await a.storage.dump();
    for (const k of ['@svc/attribution', '@svc/svc_code', '@svc/launch_code']) t.false(k in after, k);
    for (const k of ['@svc/app_user_id', '@svc/initialized', '@svc/install_id']) t.true(k in after, k);
  },
);

test('rule 11 (React Native): clearAttribution drops attribution, code and user id; results keep snake_case (rule 14)', async (t) => {
  const native = nativeApp(freshIp());
  const init = await native.client.initialize({
    apiKey: app.sdk_key,
    baseUrl: `${h().baseUrl}/api`,
    storage: native.store,
    platform: 'ios',
  });
  t.deepEqual(Object.keys(init).sort(), ['app_id', 'app_name', 'attribution_window_hours', 'campaigns', 'initialized', 'store_direct']);
  t.like(native.net.calls[0]!.body, { platform: 'ios', sdk_name: 'react-native', sdk_version: '1.6.1', app_version: 'unknown' });
  await native.client.identify('rn-user');
  const applied = await native.client.applyCode(app.creator_code);
  t.true(applied.applied);
  t.is(typeof applied.campaign!.commission_percentage, 'number');
  await native.client.checkAttribution();
  await native.client.clearAttribution();
  for (const k of ['@svc/attribution', '@svc/svc_code', '@svc/app_user_id']) t.false(native.store.map.has(k), k);
  for (const k of ['@svc/initialized', '@svc/install_id']) t.true(native.store.map.has(k), k);
  t.true([...native.store.map.keys()].every((k) => k.startsWith('@svc/')));
});

test('the default web client reads the browser lazily: localStorage, the address bar, history and fetch', async (t) => {
  const launchUrl = await tapReferralLink(h().baseUrl, app.slug, app.creator_code, freshIp());
  // Stand-ins for the browser's globals (Node has fetch and crypto, not these), installed only after the import.
  const local = new Map<string, string>([['host_key', 'untouched']]);
  const replaced: string[] = [];
  const g = globalThis as Record<string, unknown>;
  g.localStorage = {
    getItem: (k: string) => local.get(k) ?? null,
    setItem: (k: string, v: string) => {
      local.set(k, v);
    },
    removeItem: (k: string) => {
      local.delete(k);
    },
  };
  g.location = { href: launchUrl };
  g.history = {
    state: null,
    replaceState: (_s: unknown, _t: string, url: string) => {
      replaced.push(url);
    },
  };
  t.teardown(() => {
    for (const k of ['localStorage', 'location', 'history']) delete g[k];
  });

  const init = await Svc.initialize({ apiKey: app.sdk_key, baseUrl: `${h().baseUrl}/api` });
  t.is(init.app_id, app.app_id);
  t.deepEqual(replaced, [WEB_URL]);
  t.like(await Svc.checkAttribution(), { attributed: true, attribution_method: 'link_param', referral_code: app.creator_code });
  t.is(local.get('@svc/initialized'), 'true');
  t.regex(local.get('@svc/install_id')!, UUID_V4);
  t.is(local.get('host_key'), 'untouched');
  t.deepEqual(
    [...local.keys()].filter((k) => !k.startsWith('@svc/')),
    ['host_key'],
  );
});
