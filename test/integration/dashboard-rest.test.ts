// The dashboard REST (spec surface 4), route by route: no credential, an SDK key, a purchase API key, a webhook
// secret or an agent key is 401; a state-changing call of the session without (or with a wrong) CSRF token is 403;
// an id of another organization is 404 with the spec's `{"detail"}`; and the happy paths the pages use.
import test from 'ava';
import { DASHBOARD_ROUTES } from '../../api/dashboard/routes.js';
import { request } from '../helpers/http.js';
import { signInDashboard, sessionCall, type DashboardSession } from '../helpers/dashboard.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { rotatePurchaseApiKey } from '../../db/apps-writes.js';
import { timedRenders } from '../helpers/timed-renders.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let other: SeededApp;
let session: DashboardSession;
let purchaseKey: string;

test.before(async () => {
  await h.ready();
  other = await seedApp(h().db);
  session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  purchaseKey = (await rotatePurchaseApiKey(h().db, seed.app_id))!;
});

const fill = (path: string, ids: { app_id: string; campaign_id: string }) =>
  path.replace(':app_id', ids.app_id).replace(':campaign_id', ids.campaign_id);
const mine = () => ({ app_id: seed.app_id, campaign_id: seed.campaign_id });
const theirs = () => ({ app_id: other.app_id, campaign_id: other.campaign_id });

test('every route refuses SDK keys, purchase API keys, webhook secrets, agent keys and no credential with 401', async (t) => {
  t.true(DASHBOARD_ROUTES.length >= 18);
  for (const route of DASHBOARD_ROUTES) {
    const path = fill(route.path, mine());
    for (const [what, token] of [
      ['none', undefined],
      ['sdk key', seed.sdk_key],
      ['purchase api key', purchaseKey],
      ['webhook secret', seed.webhook_secret],
      ['agent key', seed.agent_key],
    ] as const) {
      const res = await request(h().baseUrl, route.method.toUpperCase(), path, { token, body: route.method === 'get' ? undefined : {} });
      t.is(res.status, 401, `${route.method} ${route.path} with ${what}`);
      t.is(typeof res.body.detail, 'string');
    }
  }
});

test('every state-changing route needs the session CSRF token: missing or wrong is 403, nothing changes', async (t) => {
  const before = await h().db('apps').where('id', seed.app_id).first('webhook_secret_hash', 'purchase_api_key_hash');
  for (const route of DASHBOARD_ROUTES.filter((r) => r.method !== 'get')) {
    const path = fill(route.path, mine());
    for (const csrf of [null, 'forged-token']) {
      const res = await sessionCall(
        h().baseUrl,
        session,
        route.method.toUpperCase(),
        path,
        { name: 'x', status: 'paused', platform: 'ios' },
        csrf,
      );
      t.is(res.status, 403, `${route.method} ${route.path} csrf=${csrf}`);
      t.regex(res.body.detail, /CSRF/);
    }
  }
  // A multipart upload without the csrf field is refused too (its route checks the field after parsing).
  const form = new FormData();
  form.set('platform', 'android');
  const upload = await fetch(`${h().baseUrl}/api/apps/${seed.app_id}/credentials`, {
    method: 'POST',
    body: form,
    headers: { cookie: session.cookie },
  });
  t.is(upload.status, 403);
  t.deepEqual(await h().db('apps').where('id', seed.app_id).first('webhook_secret_hash', 'purchase_api_key_hash'), before);
  t.is(Number((await h().db('campaigns').where('app_id', seed.app_id).count<{ count: string }[]>('* as count'))[0]!.count), 1);
});

test("another organization's app or campaign is 404 on every route that names one", async (t) => {
  const named = DASHBOARD_ROUTES.filter((r) => r.path.includes(':'));
  t.true(named.length >= 14);
  for (const route of named) {
    const res = await sessionCall(
      h().baseUrl,
      session,
      route.method.toUpperCase(),
      fill(route.path, theirs()),
      route.method === 'get'
        ? undefined
        : route.path.endsWith('/status')
          ? { status: 'paused' }
          : route.path.endsWith('/campaigns')
            ? { name: 'x', commission_percentage: 10 }
            : route.path.endsWith('/localize')
              ? { locales: {} }
              : route.method === 'patch' || route.path.endsWith(':campaign_id')
                ? { name: 'x' }
                : { platform: 'ios' },
    );
    t.is(res.status, 404, `${route.method} ${route.path}`);
    t.regex(res.body.detail, /not found/i);
  }
  const create = await sessionCall(h().baseUrl, session, 'POST', '/api/apps', { name: 'Intruder', org_id: other.org_id });
  t.is(create.status, 404);
  t.is((await h().db('campaigns').where('id', other.campaign_id).first('status')).status, 'active');
});

test('the pages read and change their organization only: list, setup, create, regenerate', async (t) => {
  const apps = await sessionCall(h().baseUrl, session, 'GET', '/api/apps');
  t.is(apps.status, 200);
  t.deepEqual(
    apps.body.apps.map((a: { app_id: string }) => a.app_id),
    [seed.app_id],
  );
  const campaigns = await sessionCall(h().baseUrl, session, 'GET', '/api/campaigns');
  t.deepEqual(
    campaigns.body.campaigns.map((c: { id: string }) => c.id),
    [seed.campaign_id],
  );

  const setup = await sessionCall(h().baseUrl, session, 'GET', `/api/apps/${seed.app_id}/setup`);
  t.is(setup.status, 200);
  t.is(setup.body.sdk_key, seed.sdk_key);
  t.deepEqual(
    setup.body.checklist.map((i: { step: string }) => i.step),
    [
      'app_created',
      'campaign_active',
      'sdk_initialized',
      'sdk_event_received',
      'validation_configured',
      'subprovider_webhook_wired',
      'purchase_webhook_seen',
      'attributed_conversion',
    ],
  );
  const agentView = await request(h().baseUrl, 'GET', `/api/agent/apps/${seed.app_id}/integration-status`, { token: seed.agent_key });
  t.deepEqual(
    setup.body.checklist.map((i: { step: string; done: boolean }) => [i.step, i.done]),
    agentView.body.checklist.map((i: { step: string; done: boolean }) => [i.step, i.done]),
  );
  const sdkOpen = setup.body.checklist.find((i: { step: string }) => i.step === 'sdk_initialized');
  t.regex(sdkOpen.troubleshooting[0], /init did not run or the SDK key is wrong/);

  const created = await sessionCall(h().baseUrl, session, 'POST', '/api/apps', { name: 'Second App' });
  t.is(created.status, 201);
  t.regex(created.body.webhook_secret, /^rc_webhook_/);
  t.regex(created.body.purchase_api_key, /^it_srv_/);
  t.is((await h().db('apps').where('id', created.body.app_id).first('org_id')).org_id, seed.org_id);
  const bad = await sessionCall(h().baseUrl, session, 'POST', '/api/apps', { name: '' });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['body', 'name']);

  const rotated = await sessionCall(h().baseUrl, session, 'POST', `/api/apps/${created.body.app_id}/regenerate-purchase-api-key`);
  t.is(rotated.status, 200);
  const direct = { transaction_id: 't1', app_user_id: 'u1', product_id: 'p', price: 1, currency: 'USD', svc_code: 'NOPE', platform: 'ios' };
  t.is(
    (await request(h().baseUrl, 'POST', '/api/webhooks/purchase', { token: created.body.purchase_api_key, body: direct })).status,
    401,
    'the old key died',
  );
  const audit = await h().db('audit_log').where({ actor_type: 'user', action: 'dashboard.regenerate_purchase_api_key' }).first();
  t.truthy(audit);
});

test('the setup page renders server-side in one request, with every checklist step labelled', async (t) => {
  const renders = await timedRenders(15, () => session.browser.fetch(`${h().baseUrl}/dashboard/apps/${seed.app_id}`));
  t.deepEqual(renders.statuses, Array(15).fill(200));
  const html = renders.last.text;
  t.log(`setup page: p50 ${renders.p50.toFixed(1)} ms, max ${renders.max.toFixed(1)} ms over 15 renders`);
  t.true(renders.p50 < 1000);
  t.is((html.match(/<li data-step="/g) ?? []).length, 8);
  for (const id of [...html.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1]!))
    t.true(html.includes(`<label for="${id}">`), `input ${id} has a label`);
  // No JavaScript needed: the scripts only enhance (confirm dialogs, local dates, copy buttons hidden until they run,
  // the test purchase's progress).
  t.deepEqual([...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]).sort(), [
    '/dashboard/static/dashboard.js',
    '/dashboard/static/test-purchase.js',
  ]);
  t.false(/<button[^>]*data-copy[^>]*>/.test(html.replace(/<button[^>]*data-copy[^>]*hidden[^>]*>/g, '')), 'copy buttons start hidden');
  const other404 = await session.browser.fetch(`${h().baseUrl}/dashboard/apps/${other.app_id}`);
  t.is(other404.status, 404);
});
