// The dashboard REST routes of the campaign and analytics pages (issue 17): each one's 401 (no session; an agent
// key), 403 (state change without the CSRF token), 404 (another organization's campaign or app) and 422 (bad
// input, fields named); analytics answers equal the agent API's for the same range; the localize form's flat fields
// reach the agent API's handler, and a locale goes stale when the source text changes; the edit form keeps
// `holding_period_days`.
import test from 'ava';
import { DASHBOARD_ROUTES } from '../../api/dashboard/routes.js';
import { request } from '../helpers/http.js';
import { signInDashboard, sessionCall, type DashboardSession } from '../helpers/dashboard.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { randomUUID } from 'node:crypto';
import { timedRenders } from '../helpers/timed-renders.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let mine: SeededApp;
let other: SeededApp;
let session: DashboardSession;

const NEW_ROUTES = [
  '/api/campaigns/:campaign_id/localize',
  '/api/campaigns/:campaign_id/join-link',
  '/api/campaigns/:campaign_id/funnel',
  '/api/campaigns/:campaign_id/daily-performance',
  '/api/campaigns/:campaign_id/top-affiliates',
  '/api/apps/:app_id/analytics/overview',
];
const routes = () =>
  DASHBOARD_ROUTES.filter((r) => NEW_ROUTES.includes(r.path) || (r.method === 'post' && r.path === '/api/campaigns/:campaign_id'));
const fill = (path: string, a: SeededApp) => path.replace(':app_id', a.app_id).replace(':campaign_id', a.campaign_id);
const bodyFor = (path: string) => (path.endsWith('/localize') ? { locales: { de: { name: 'Start' } } } : { name: 'x' });

test.before(async () => {
  await h.ready();
  mine = await seedApp(h().db, { orgId: seed.org_id });
  other = await seedApp(h().db);
  session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  // Activity on my campaign: two link clicks and one attributed install (the funnel's first steps).
  await h().db('apps').where('id', mine.app_id).update({ ios_store_url: 'https://apps.apple.com/us/app/test/id1234567890' });
  const { slug } = await h().db('apps').where('id', mine.app_id).first('slug');
  for (let i = 0; i < 2; i++) {
    const res = await request(h().baseUrl, 'GET', `/${slug}/${mine.creator_code}`, {
      headers: { accept: 'text/html', 'user-agent': IPHONE_UA },
    });
    if (res.status !== 302) throw new Error(`click: ${res.status}`);
  }
  const install = await sdkClient(h().baseUrl, mine.sdk_key).post('/track-install', {
    platform: 'ios',
    device_id: randomUUID(),
    referral_code: mine.creator_code,
  });
  if (!install.body.attributed) throw new Error(`install: ${install.text}`);
});

test.serial('the new routes: 401 without a session or with an agent key, 403 without CSRF, 404 for another organization', async (t) => {
  t.is(routes().length, 7);
  for (const route of routes()) {
    const method = route.method.toUpperCase();
    for (const token of [undefined, seed.agent_key]) {
      const res = await request(h().baseUrl, method, fill(route.path, mine), {
        token,
        body: route.method === 'get' ? undefined : bodyFor(route.path),
      });
      t.is(res.status, 401, `${method} ${route.path}`);
    }
    if (route.method !== 'get') {
      const res = await sessionCall(h().baseUrl, session, method, fill(route.path, mine), bodyFor(route.path), null);
      t.is(res.status, 403, `${method} ${route.path}`);
    }
    const theirs = await sessionCall(
      h().baseUrl,
      session,
      method,
      fill(route.path, other),
      route.method === 'get' ? undefined : bodyFor(route.path),
    );
    t.is(theirs.status, 404, `${method} ${route.path}: ${theirs.text}`);
    t.regex(theirs.body.detail, /not found/i);
  }
  const row = await h().db('campaigns').where('id', other.campaign_id).first('name', 'i18n');
  t.is(row.name, 'Test campaign');
  t.deepEqual(row.i18n ?? {}, {});
});

test.serial('bad input is 422 naming the field, and nothing is written', async (t) => {
  const c = `/api/campaigns/${mine.campaign_id}`;
  const cases: [string, string, unknown, string][] = [
    ['POST', c, { holding_period_days: 400 }, 'holding_period_days'],
    ['POST', c, { commission_percentage: 101 }, 'commission_percentage'],
    ['POST', c, { status: 'active' }, 'status'],
    ['POST', `${c}/localize`, { locales: { german: { name: 'x' } } }, 'locales'],
    ['POST', `${c}/localize`, { locales: { de: {} } }, 'de'],
    ['GET', `${c}/join-link?lang=${encodeURIComponent('<x>')}`, undefined, 'lang'],
    ['GET', `${c}/funnel?from=2026-02-30`, undefined, 'from'],
    ['GET', `${c}/daily-performance?from=2026-03-10&to=2026-03-01`, undefined, 'from'],
    ['GET', `${c}/top-affiliates?limit=0`, undefined, 'limit'],
    ['GET', `/api/apps/${mine.app_id}/analytics/overview?to=yesterday`, undefined, 'to'],
  ];
  const before = await h().db('campaigns').where('id', mine.campaign_id).first();
  for (const [method, path, body, field] of cases) {
    const res = await sessionCall(h().baseUrl, session, method, path, body);
    t.is(res.status, 422, `${method} ${path}: ${res.text}`);
    t.true(
      res.body.detail.some((p: { loc: (string | number)[] }) => p.loc.includes(field)),
      `${path} names ${field}: ${res.text}`,
    );
  }
  t.deepEqual(await h().db('campaigns').where('id', mine.campaign_id).first(), before);
});

test.serial('analytics through the dashboard REST equal the agent API for the same range', async (t) => {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const q = `from=${day(Date.now() - 6 * 86_400_000)}&to=${day(Date.now())}`;
  const pairs: [string, string][] = [
    [`/api/campaigns/${mine.campaign_id}/funnel?${q}`, `/api/agent/campaigns/${mine.campaign_id}/funnel?${q}`],
    [`/api/campaigns/${mine.campaign_id}/daily-performance?${q}`, `/api/agent/campaigns/${mine.campaign_id}/daily-performance?${q}`],
    [
      `/api/campaigns/${mine.campaign_id}/top-affiliates?${q}&limit=5`,
      `/api/agent/analytics/top-affiliates?campaign_id=${mine.campaign_id}&${q}&limit=5`,
    ],
    [`/api/apps/${mine.app_id}/analytics/overview?${q}`, `/api/agent/apps/${mine.app_id}/analytics/overview?${q}`],
    [`/api/campaigns/${mine.campaign_id}/join-link?lang=de`, `/api/agent/campaigns/${mine.campaign_id}/join-link?lang=de`],
  ];
  for (const [dash, agent] of pairs) {
    const [a, b] = await Promise.all([
      sessionCall(h().baseUrl, session, 'GET', dash),
      request(h().baseUrl, 'GET', agent, { token: seed.agent_key }),
    ]);
    t.is(a.status, 200, `${dash}: ${a.text}`);
    t.is(b.status, 200, `${agent}: ${b.text}`);
    t.deepEqual(a.body, b.body, dash);
  }
  const funnel = await sessionCall(h().baseUrl, session, 'GET', `/api/campaigns/${mine.campaign_id}/funnel?${q}`);
  t.like(funnel.body, { clicks: 2, attributed_installs: 1 }, 'the seeded activity is counted');
});

test.serial('the localize form and the edit form: fresh, then stale after the description changes; holding period kept', async (t) => {
  const id = mine.campaign_id;
  const form = (fields: Record<string, string>) =>
    session.browser.fetch(`${h().baseUrl}/api/campaigns/${id}${fields.locale ? '/localize' : ''}`, {
      form: { csrf: session.csrf, return_to: `/dashboard/campaigns/${id}`, ...fields },
    });
  const saved = await form({ locale: 'de', name: 'Sommeraktion', description: '' });
  t.is(saved.status, 303);
  let view = (await sessionCall(h().baseUrl, session, 'GET', `/api/campaigns/${id}`)).body;
  t.like(view.i18n.locales.de, { name: 'Sommeraktion', status: 'fresh' });
  t.false('description' in view.i18n.locales.de, 'a blank field is left out');

  const edited = await form({
    name: 'Test campaign',
    description: 'Now with a description',
    commission_percentage: '25',
    holding_period_days: '14',
  });
  t.is(edited.status, 303);
  view = (await sessionCall(h().baseUrl, session, 'GET', `/api/campaigns/${id}`)).body;
  t.like(view, { description: 'Now with a description', commission_percentage: 25, holding_period_days: 14 });
  t.is(view.i18n.locales.de.status, 'stale');
  t.deepEqual(view.i18n.stale_locales, ['de']);

  const bad = await form({ name: 'Test campaign', commission_percentage: '25', holding_period_days: '-1', form_id: 'edit-campaign' });
  t.is(bad.status, 303, 'a refused form goes back to its page');
  const back = await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${id}`);
  t.regex(back.text, /id="edit-holding-error">Enter whole days from \d+ to \d+\./, 'the error beside the field, in words');
  t.regex(back.text, /id="edit-holding" name="holding_period_days"[^>]*value="-1"/, 'what was typed is kept');
  t.notRegex((await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${id}`)).text, /edit-holding-error/, 'shown once');
  t.is((await h().db('campaigns').where('id', id).first('holding_period_days')).holding_period_days, 14);
  const audit = await h().db('audit_log').where({ actor_type: 'user', action: 'dashboard.localize_campaign' }).first();
  t.truthy(audit);
});

test.serial(
  'the campaign pages render for the organization only, with labelled fields; the analytics page works without JavaScript',
  async (t) => {
    const list = await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns`);
    t.is(list.status, 200);
    t.true(list.text.includes(`data-campaign="${mine.campaign_id}"`));
    t.false(list.text.includes(other.campaign_id));
    const detail = await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${mine.campaign_id}`);
    t.is(detail.status, 200);
    for (const id of [...detail.text.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1]!))
      t.true(detail.text.includes(`<label for="${id}">`), `input ${id} has a label`);
    t.regex(detail.text, /name="holding_period_days"/);
    for (const lang of ['en', 'de', 'es', 'fr']) t.true(detail.text.includes(`/join/${mine.campaign_id}?lang=${lang}`), lang);
    t.is((await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${other.campaign_id}`)).status, 404);
    t.is((await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${other.campaign_id}/analytics`)).status, 404);

    const analyticsUrl = `${h().baseUrl}/dashboard/campaigns/${mine.campaign_id}/analytics`;
    await session.browser.fetch(analyticsUrl);
    const renders = await timedRenders(11, () => session.browser.fetch(analyticsUrl));
    const analytics = renders.last;
    t.log(
      `analytics page (30 days, three computations): p50 ${renders.p50.toFixed(1)} ms, max ${renders.max.toFixed(1)} ms over 11 renders`,
    );
    t.is(analytics.status, 200);
    t.regex(analytics.text, /<tr data-metric="clicks"><th scope="row">Clicks<\/th><td>2<\/td>/, 'the numbers are in the HTML table');
    t.regex(analytics.text, /<script nonce="[^"]+" src="\/dashboard\/static\/chart\.js"><\/script>/);
    const bad = await session.browser.fetch(
      `${h().baseUrl}/dashboard/campaigns/${mine.campaign_id}/analytics?from=2026-01-10&to=2026-01-01`,
    );
    t.is(bad.status, 422);
    t.regex(bad.text, /role="alert"/);

    const lib = await fetch(`${h().baseUrl}/dashboard/static/chart.js`);
    t.is(lib.status, 200);
    t.regex(lib.headers.get('content-type') ?? '', /javascript/);
    t.regex(await lib.text(), /Chart\.js v4\.6\.1/);
  },
);
