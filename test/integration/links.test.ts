// GET /{app_slug}/{code}: referral links record a click and redirect to the platform's store with svc_code and
// svc_click (CONTRACT.md "Referral links").
import { Router } from '@koa/router';
import test from 'ava';
import { createApp } from '../../db/apps-writes.js';
import { createCampaign } from '../../db/campaigns-writes.js';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { countRows } from '../helpers/db.js';
import { request } from '../helpers/http.js';
import { ANDROID_UA, IPHONE_UA } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import type { CampaignStatus } from '../../schema/types.js';

const DESKTOP_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const IOS_URL = 'https://apps.apple.com/app/id000000000';
const WEB_URL = 'https://example.com/demo';

// A route mounted after the links, as the harness mounts probes: two-segment paths of no app must still reach it.
const later = new Router();
later.get('/probe/after-links', (ctx) => {
  ctx.body = { reached: true };
});

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' }, mount: (app) => app.use(later.routes()) });
let slug: string;

test.before(async () => {
  await h.ready();
  slug = (await h().db('apps').where('id', seed.app_id).first('slug')).slug;
});

function visit(path: string, headers: Record<string, string> = {}) {
  return request(h().baseUrl, 'GET', path, { headers: { accept: 'text/html', ...headers } });
}

function clickIdOf(location: string | null): string {
  return new URL(location ?? 'about:blank').searchParams.get('svc_click') ?? '';
}

/** A creator code of the seeded app in a new campaign of the given status. */
async function codeInCampaign(status: CampaignStatus, code: string, appId = seed.app_id): Promise<string> {
  const db = h().db;
  const campaign = await createCampaign(db, {
    appId,
    orgId: seed.org_id,
    name: `${status} campaign`,
    campaignType: 'public',
    commissionPercentage: 20,
    status,
  });
  const creator = await upsertCreator(db, { name: `Creator ${code}`, email: `${code.toLowerCase()}@example.com` });
  return (await addCreatorCode(db, { appId, campaignId: campaign.id, creatorId: creator.id, code, source: 'seed' })).id;
}

test(
  'an iPhone click is recorded with the forwarded IP, UA ' + 'platform and OS, query hints and referrer, then goes to the App Store',
  async (t) => {
    const res = await visit(`/${slug}/${seed.creator_code}?lang=de-DE&tz=Europe%2FBerlin&screen=390x844&utm_source=yt&svc_code=EVIL`, {
      'user-agent': IPHONE_UA,
      'x-forwarded-for': '203.0.113.7',
      referer: 'https://www.youtube.com/watch?v=1',
    });
    t.is(res.status, 302);
    t.is(res.headers.get('cache-control'), 'no-store');
    t.is(res.headers.get('referrer-policy'), 'no-referrer');
    const location = new URL(res.headers.get('location')!);
    t.is(`${location.origin}${location.pathname}`, IOS_URL);
    t.is(location.searchParams.get('svc_code'), seed.creator_code);
    const click = await h()
      .db('clicks')
      .where('id', clickIdOf(res.headers.get('location')))
      .first();
    t.like(click, {
      app_id: seed.app_id,
      campaign_id: seed.campaign_id,
      code: seed.creator_code,
      source: 'link',
      ip: '203.0.113.7',
      user_agent: IPHONE_UA,
      platform: 'ios',
      os_version: '17.4',
      language: 'de-DE',
      timezone: 'Europe/Berlin',
      screen: '390x844',
      referrer: 'https://www.youtube.com/watch?v=1',
    });
    t.deepEqual(click.device_hints, { lang: 'de-DE', tz: 'Europe/Berlin', screen: '390x844', utm_source: 'yt' });
  },
);

test('an Android click goes to Google Play with svc_code and svc_click also inside the install referrer', async (t) => {
  const res = await visit(`/${slug}/${seed.creator_code}`, { 'user-agent': ANDROID_UA, 'x-forwarded-for': '203.0.113.8' });
  t.is(res.status, 302);
  const raw = res.headers.get('location')!;
  const location = new URL(raw);
  t.is(location.host, 'play.google.com');
  t.is(location.searchParams.get('id'), 'com.example.demo');
  const clickId = clickIdOf(raw);
  t.regex(clickId, /^clk_/);
  t.is(location.searchParams.get('svc_code'), seed.creator_code);
  t.is(location.searchParams.get('referrer'), `svc_code=${seed.creator_code}&svc_click=${clickId}`);
  t.true(raw.includes(`referrer=svc_code%3D${seed.creator_code}%26svc_click%3D${clickId}`));
  t.like(await h().db('clicks').where('id', clickId).first(), { platform: 'android', os_version: '14', ip: '203.0.113.8' });
});

test('a desktop click goes to the web URL', async (t) => {
  const res = await visit(`/${slug}/${seed.creator_code}`, { 'user-agent': DESKTOP_UA });
  t.is(res.status, 302);
  const location = new URL(res.headers.get('location')!);
  t.is(`${location.origin}${location.pathname}`, WEB_URL);
  t.is(location.searchParams.get('svc_code'), seed.creator_code);
  t.like(
    await h()
      .db('clicks')
      .where('id', clickIdOf(res.headers.get('location')))
      .first(),
    { platform: 'web' },
  );
});

test('query hints override the User-Agent guess for the click and the destination', async (t) => {
  const res = await visit(`/${slug}/${seed.creator_code}?platform=android&os_version=13`, { 'user-agent': IPHONE_UA });
  t.is(new URL(res.headers.get('location')!).host, 'play.google.com');
  t.like(
    await h()
      .db('clicks')
      .where('id', clickIdOf(res.headers.get('location')))
      .first(),
    { platform: 'android', os_version: '13' },
  );
  const web = await visit(`/${slug}/${seed.creator_code}?platform=web`, { 'user-agent': IPHONE_UA });
  t.is(new URL(web.headers.get('location')!).host, 'example.com');
  t.like(
    await h()
      .db('clicks')
      .where('id', clickIdOf(web.headers.get('location')))
      .first(),
    { platform: 'web', os_version: null },
  );
});

test('a lowercase code and an uppercase slug lead to the same link', async (t) => {
  const res = await visit(`/${slug.toUpperCase()}/${seed.creator_code.toLowerCase()}`, { 'user-agent': IPHONE_UA });
  t.is(res.status, 302);
  t.is(new URL(res.headers.get('location')!).searchParams.get('svc_code'), seed.creator_code);
  t.like(
    await h()
      .db('clicks')
      .where('id', clickIdOf(res.headers.get('location')))
      .first(),
    { code: seed.creator_code },
  );
});

test('an unknown slug or code answers a 404 HTML page and records nothing', async (t) => {
  for (const path of ['/no-such-app-here/ABCD', `/${slug}/NOPE1`, `/${slug}/%3Cscript%3Ealert(1)%3C%2Fscript%3E`, `/${slug}/x`]) {
    const res = await visit(path, { 'user-agent': IPHONE_UA, 'x-forwarded-for': '203.0.113.66' });
    t.is(res.status, 404, path);
    t.regex(res.headers.get('content-type') ?? '', /^text\/html/, path);
    t.regex(res.text, /Link not found/, path);
    t.false(res.text.includes('<script>alert'), path);
    t.is(res.headers.get('cache-control'), 'no-store');
  }
  t.is(await countRows(h().db('clicks').where('ip', '203.0.113.66')), 0);
});

test('links of paused and draft campaigns redirect without a code or click id and record no click', async (t) => {
  for (const [status, code] of [
    ['paused', 'PAUSEDCODE'],
    ['draft', 'DRAFTCODE'],
  ] as const) {
    const creatorCodeId = await codeInCampaign(status, code);
    const res = await visit(`/${slug}/${code.toLowerCase()}`, { 'user-agent': IPHONE_UA });
    t.is(res.status, 302, status);
    t.is(res.headers.get('location'), IOS_URL, status);
    t.is(await countRows(h().db('clicks').where('creator_code_id', creatorCodeId)), 0, status);
  }
});

test('HEAD answers the redirect without recording a click', async (t) => {
  const creatorCodeId = await codeInCampaign('active', 'HEADCHECK');
  const res = await fetch(`${h().baseUrl}/${slug}/HEADCHECK`, { method: 'HEAD', redirect: 'manual', headers: { 'user-agent': IPHONE_UA } });
  t.is(res.status, 302);
  t.false(new URL(res.headers.get('location')!).searchParams.has('svc_click'));
  t.is(await countRows(h().db('clicks').where('creator_code_id', creatorCodeId)), 0);
});

test('an app without any URL shows the code to enter by hand, escaped, and still records the click', async (t) => {
  const db = h().db;
  const app = await createApp(db, { orgId: seed.org_id, name: 'Tom & <Jerry>', slug: `nourl-${Date.now().toString(36)}` });
  const creatorCodeId = await codeInCampaign('active', 'NOURL-CODE', app.id);
  const res = await visit(`/${app.slug}/nourl-code`, { 'user-agent': IPHONE_UA, 'x-forwarded-for': '203.0.113.9' });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
  t.is(res.headers.get('cache-control'), 'no-store');
  t.true(res.text.includes('NOURL-CODE'));
  t.true(res.text.includes('Tom &amp; &lt;Jerry>'));
  t.false(res.text.includes('<Jerry>'));
  t.like(await db('clicks').where('creator_code_id', creatorCodeId).first(), { ip: '203.0.113.9', platform: 'ios' });
});

test('a path whose first segment is no app reaches routes mounted after the links', async (t) => {
  const res = await request(h().baseUrl, 'GET', '/probe/after-links');
  t.is(res.status, 200);
  t.deepEqual(res.body, { reached: true });
  t.is(res.headers.get('cache-control'), null, 'link headers stay off answers that are not links');
});

test('reserved first segments are never links: other surfaces keep their JSON 404 and method answers', async (t) => {
  for (const path of ['/api/anything', '/dashboard/x', '/join/ABCD', '/API/anything', '/healthz/x', '/.well-known/x']) {
    const res = await request(h().baseUrl, 'GET', path);
    t.is(res.status, 404, path);
    t.deepEqual(res.body, { detail: 'Not Found' }, path);
  }
  const post = await request(h().baseUrl, 'POST', '/api/anything', { body: {} });
  t.is(post.status, 404);
  t.deepEqual(post.body, { detail: 'Not Found' });
});

test('link visits are labelled by the route shape in /metrics, never by slug or code', async (t) => {
  await visit(`/${slug}/${seed.creator_code}`, { 'user-agent': DESKTOP_UA });
  const metrics = (await request(h().baseUrl, 'GET', '/metrics')).text;
  t.regex(metrics, /http_request_duration_seconds_count\{method="GET",route="\/:slug\/:code",status="302"\}/);
  t.false(metrics.includes(seed.creator_code));
});
