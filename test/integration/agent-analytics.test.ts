// The agent API's analytics (overview, campaign funnel, top affiliates, daily performance; sandbox never counts,
// period parameters validated), localization (per-locale copy, fresh or stale against the source text's hash), store
// search and scrape (through a local stub speaking the public store search wire format) and validation-status.
// Real data: link clicks, SDK track-install and provider webhooks through a real worker.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { issueCreatorCode } from '../../lib/codes.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { connectMcp, ok } from '../helpers/mcp.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { startStoreSearchStub, type StoreSearchStub } from '../stubs/store-search.js';

const { h } = useSeededHarness(test, { env: { TRUST_PROXY: 'true', STORE_SEARCH_ROOT: 'http://127.0.0.1:9/' } });

let stub: StoreSearchStub;
test.before(async () => {
  stub = await startStoreSearchStub();
});
test.after.always(async () => {
  await stub?.close();
});

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const get = (token: string, path: string) => agent(token, 'GET', path);

async function freshApp(): Promise<SeededApp & { key: string; slug: string }> {
  await h.ready();
  const app = await seedApp(h().db);
  const { key } = await createAgentKey(h().db, { orgId: app.org_id, name: 'analytics test', scopes: [...SCOPES] });
  const { slug } = await h().db('apps').where('id', app.app_id).first('slug');
  return { ...app, key, slug };
}

async function keyWithout(orgId: string, missing: Scope): Promise<string> {
  return (await createAgentKey(h().db, { orgId, name: 'narrow', scopes: SCOPES.filter((s) => s !== missing) })).key;
}

let ipCounter = 0;
/** A link click through the public referral link, returning its click id. */
async function clickLink(slug: string, code: string): Promise<{ clickId: string; ip: string }> {
  const ip = `198.51.100.${(ipCounter++ % 250) + 1}`;
  const res = await request(h().baseUrl, 'GET', `/${slug}/${code}`, {
    headers: { accept: 'text/html', 'user-agent': IPHONE_UA, 'x-forwarded-for': ip },
  });
  if (res.status !== 302) throw new Error(`link visit: ${res.status} ${res.text}`);
  return { clickId: new URL(res.headers.get('location')!).searchParams.get('svc_click')!, ip };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `timed out waiting ` +
      `for ${what}: ${JSON.stringify(await h().db('conversions').select('environment', 'trial', 'attributed', 'app_user_id', 'status'))}`,
  );
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Two clicks, one attributed and one organic install, a production purchase, a production trial and a sandbox
 * purchase, all with the app's creator code; returns the production and sandbox money straight from the ledger rows.
 */
async function appWithActivity() {
  const app = await freshApp();
  await h().db('apps').where('id', app.app_id).update({ ios_store_url: 'https://apps.apple.com/us/app/test/id1234567890' });
  const sdk = sdkClient(h().baseUrl, app.sdk_key);
  const first = await clickLink(app.slug, app.creator_code);
  await clickLink(app.slug, app.creator_code);
  const attributed = await sdkClient(h().baseUrl, app.sdk_key, first.ip).post('/track-install', {
    platform: 'ios',
    device_id: randomUUID(),
    referral_code: app.creator_code,
    click_id: first.clickId,
  });
  if (!attributed.body.attributed) throw new Error(`track-install: ${attributed.text}`);
  await sdk.post('/track-install', { platform: 'android', device_id: randomUUID() });
  const hook = (user: string, name: 'initial_purchase' | 'initial_purchase_trial', env = 'PRODUCTION') =>
    sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, subscription(user, app.creator_code)(name, { environment: env }));
  for (const res of [
    await hook('paid-user', 'initial_purchase'),
    await hook('trial-user', 'initial_purchase_trial'),
    await hook('sandbox-user', 'initial_purchase', 'SANDBOX'),
  ]) {
    if (res.status >= 300) throw new Error(`webhook: ${res.status} ${res.text}`);
  }
  await waitFor(
    'conversions',
    async () => Number((await h().db('conversions').where('app_id', app.app_id).count<{ count: string }[]>('* as count'))[0]!.count) === 3,
  );
  await waitFor('commissions', async () => {
    const rows = await h().db('commissions').where('app_id', app.app_id).select('environment');
    return rows.some((r) => r.environment === 'PRODUCTION') && rows.some((r) => r.environment === 'SANDBOX');
  });
  const sums = async (env: 'PRODUCTION' | 'SANDBOX') => {
    const [row] = await h()
      .db('commissions')
      .where({ app_id: app.app_id, environment: env })
      .select(h().db.raw('coalesce(sum(revenue_usd_micros),0)::bigint as r, coalesce(sum(commission_micros),0)::bigint as c'));
    return { revenue_usd: Number(row.r) / 1e6, commission_usd: Number(row.c) / 1e6 };
  };
  return { app, production: await sums('PRODUCTION'), sandbox: await sums('SANDBOX') };
}

test('analytics overview and campaign funnel count production only; sandbox purchases never show', async (t) => {
  const { app, production, sandbox } = await appWithActivity();
  t.true(production.revenue_usd > 0 && production.commission_usd > 0, 'a production commission exists');
  t.true(sandbox.revenue_usd > 0, 'a sandbox (simulated) commission exists and must stay out');

  const overview = await get(app.key, `/apps/${app.app_id}/analytics/overview`);
  t.is(overview.status, 200, overview.text);
  t.like(overview.body, {
    app_id: app.app_id,
    clicks: 2,
    installs: 2,
    attributed_installs: 1,
    trials: 1,
    conversions: 1,
    revenue_usd: production.revenue_usd,
    commission_usd: production.commission_usd,
    active_campaigns: 1,
    creators: 1,
  });
  t.like(overview.body.period, { to: today(), days: 30, timezone: 'UTC', environment: 'PRODUCTION' });

  const funnel = await get(app.key, `/campaigns/${app.campaign_id}/funnel`);
  t.is(funnel.status, 200, funnel.text);
  t.like(funnel.body, {
    campaign_id: app.campaign_id,
    clicks: 2,
    installs: 1,
    trials: 1,
    conversions: 1,
    revenue_usd: production.revenue_usd,
    commission_usd: production.commission_usd,
  });
  t.deepEqual(funnel.body.rates, { install_per_click: 0.5, conversion_per_install: 1 });

  const past = await get(app.key, `/campaigns/${app.campaign_id}/funnel?from=2020-01-01&to=2020-01-31`);
  t.like(past.body, { clicks: 0, installs: 0, trials: 0, conversions: 0, revenue_usd: 0, commission_usd: 0 });
  t.like(past.body.period, { from: '2020-01-01', to: '2020-01-31', days: 31 });
});

test(
  'campaign stats: lifetime production counters on every campaign ' +
    'answer, equal to a funnel over its whole life; one statement for a list',
  async (t) => {
    const { app, production } = await appWithActivity();
    const expected = {
      clicks: 2,
      installs: 1,
      attributed_installs: 1,
      conversions: 1,
      revenue_usd: production.revenue_usd,
      commission_usd: production.commission_usd,
    };
    const one = await get(app.key, `/campaigns/${app.campaign_id}`);
    t.is(one.status, 200, one.text);
    t.deepEqual(one.body.stats, expected, 'sandbox purchase, trial and organic install left out');
    const lifetime = await get(
      app.key,
      `/campaigns/${app.campaign_id}/funnel?from=${new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10)}`,
    );
    for (const [k, v] of Object.entries(expected)) t.is(lifetime.body[k], v, `funnel ${k}`);

    // Writes answer the record too; a second (empty) campaign of the app reads zeros.
    const created = await agent(app.key, 'POST', `/apps/${app.app_id}/campaigns`, { name: 'Second', commission_percentage: 10 });
    t.is(created.status, 201, created.text);
    const zeros = { clicks: 0, installs: 0, attributed_installs: 0, conversions: 0, revenue_usd: 0, commission_usd: 0 };
    t.deepEqual(created.body.stats, zeros);
    const patched = await agent(app.key, 'PATCH', `/campaigns/${app.campaign_id}`, { description: 'new terms' });
    t.deepEqual(patched.body.stats, expected);
    const paused = await agent(app.key, 'POST', `/campaigns/${app.campaign_id}/status`, { status: 'paused' });
    t.deepEqual(paused.body.stats, expected);

    const statements: string[] = [];
    // Only this app's statements: the file's other tests run at the same time on the same handle and read clicks too.
    const record = (q: { sql: string; bindings?: unknown[] }) => {
      const ours = JSON.stringify(q.bindings ?? []);
      if (/"clicks"/.test(q.sql) && [app.campaign_id, created.body.id as string, app.app_id].some((id) => ours.includes(id)))
        statements.push(q.sql);
    };
    h().db.on('query', record);
    const list = await get(app.key, `/campaigns?app_id=${app.app_id}`);
    h().db.off('query', record);
    t.is(list.status, 200, list.text);
    t.deepEqual(Object.fromEntries(list.body.campaigns.map((c: { id: string; stats: unknown }) => [c.id, c.stats])), {
      [app.campaign_id]: expected,
      [created.body.id]: zeros,
    });
    t.is(statements.length, 1, 'one statement reads the stats of the whole list');
    t.regex(statements[0]!, /group by campaign_id/);
    // The filters: status narrows (the first campaign is paused, the created one a draft); a status that is none is 422.
    const pausedOnly = await get(app.key, `/campaigns?app_id=${app.app_id}&status=paused`);
    t.deepEqual(
      pausedOnly.body.campaigns.map((c: { id: string }) => c.id),
      [app.campaign_id],
    );
    const bogus = await get(app.key, '/campaigns?status=running');
    t.is(bogus.status, 422, bogus.text);
    t.deepEqual(
      bogus.body.detail.map((d: { loc: string[] }) => d.loc),
      [['query', 'status']],
    );

    const mcp = await connectMcp(h().baseUrl, app.key);
    try {
      t.deepEqual(ok(await mcp.call('svc_get_campaign', { campaign_id: app.campaign_id })).stats, expected);
      const listed = ok(await mcp.call('svc_list_campaigns', {}));
      t.deepEqual(
        listed.campaigns.map((c: { stats: unknown }) => c.stats),
        [expected, zeros],
      );
      const drafts = ok(await mcp.call('svc_list_campaigns', { app_id: app.app_id, status: 'draft' }));
      t.deepEqual(
        drafts.campaigns.map((c: { id: string }) => c.id),
        [created.body.id],
        'the tool takes the same filters',
      );
    } finally {
      await mcp.close();
    }
  },
);

test('daily performance: one zero-filled row per UTC day of the period, today carrying the activity', async (t) => {
  const { app, production } = await appWithActivity();
  const res = await get(app.key, `/campaigns/${app.campaign_id}/daily-performance`);
  t.is(res.status, 200, res.text);
  t.is(res.body.days.length, 30);
  const last = res.body.days.at(-1);
  t.like(last, { date: today(), clicks: 2, installs: 1, trials: 1, conversions: 1, revenue_usd: production.revenue_usd });
  for (const d of res.body.days.slice(0, -1)) t.like(d, { clicks: 0, installs: 0, conversions: 0, revenue_usd: 0, commission_usd: 0 });
  const dates = res.body.days.map((d: { date: string }) => d.date);
  t.deepEqual(dates, [...dates].sort());

  const three = await get(app.key, `/campaigns/${app.campaign_id}/daily-performance?from=2024-02-28&to=2024-03-01`);
  t.deepEqual(
    three.body.days.map((d: { date: string }) => d.date),
    ['2024-02-28', '2024-02-29', '2024-03-01'],
  );
});

test('top affiliates: ranked by production conversions then revenue, limit and campaign filter, sandbox ignored', async (t) => {
  const { app } = await appWithActivity();
  // A second creator with only sandbox purchases (several) and more clicks: ranks below the production converter.
  await h().db('apps').where('id', app.app_id).update({ ios_store_url: 'https://apps.apple.com/us/app/test/id1234567890' });
  const creator = await upsertCreator(h().db, { name: 'Sandbox Sam', email: `sam+${randomUUID()}@example.com` });
  const code = await addCreatorCode(h().db, {
    appId: app.app_id,
    campaignId: app.campaign_id,
    creatorId: creator.id,
    code: issueCreatorCode(),
    source: 'seed',
  });
  for (let i = 0; i < 3; i++) await clickLink(app.slug, code.code);
  for (const user of ['sam-1', 'sam-2']) {
    await sendWebhook(
      h().baseUrl,
      app.app_id,
      app.webhook_secret,
      subscription(user, code.code)('initial_purchase', { environment: 'SANDBOX' }),
    );
  }
  const res = await get(app.key, `/analytics/top-affiliates?campaign_id=${app.campaign_id}`);
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.affiliates.map((a: { code: string }) => a.code),
    [app.creator_code, code.code],
  );
  t.like(res.body.affiliates[0], {
    rank: 1,
    creator_id: app.creator_id,
    creator_name: 'Test Creator',
    campaign_id: app.campaign_id,
    conversions: 1,
    clicks: 2,
  });
  t.like(res.body.affiliates[1], {
    rank: 2,
    creator_name: 'Sandbox Sam',
    conversions: 0,
    trials: 0,
    revenue_usd: 0,
    commission_usd: 0,
    clicks: 3,
  });
  const one = await get(app.key, '/analytics/top-affiliates?limit=1');
  t.is(one.body.affiliates.length, 1);
  t.is(one.body.affiliates[0].code, app.creator_code);
  const byApp = await get(app.key, `/analytics/top-affiliates?app_id=${app.app_id}`);
  t.is(byApp.body.count, 2);
});

test('analytics: period and limit validation (422), scope (403 naming it), tenancy (404)', async (t) => {
  const app = await freshApp();
  const other = await freshApp();
  for (const q of ['from=2026-02-30', 'to=20260101', 'from=2026-03-02&to=2026-03-01', 'from=2024-01-01&to=2025-01-02']) {
    const res = await get(app.key, `/apps/${app.app_id}/analytics/overview?${q}`);
    t.is(res.status, 422, `${q}: ${res.text}`);
  }
  const full = await get(app.key, `/apps/${app.app_id}/analytics/overview?from=2024-01-01&to=2024-12-31`);
  t.is(full.status, 200, full.text);
  for (const q of ['limit=0', 'limit=51', 'limit=x']) t.is((await get(app.key, `/analytics/top-affiliates?${q}`)).status, 422, q);

  const narrow = await keyWithout(app.org_id, 'analytics:read');
  for (const path of [
    `/apps/${app.app_id}/analytics/overview`,
    `/campaigns/${app.campaign_id}/funnel`,
    '/analytics/top-affiliates',
    `/campaigns/${app.campaign_id}/daily-performance`,
  ]) {
    const res = await get(narrow, path);
    t.is(res.status, 403, path);
    t.regex(JSON.stringify(res.body.detail), /analytics:read/);
    t.is(
      (await get(app.key, path.replace(app.app_id, other.app_id).replace(app.campaign_id, other.campaign_id))).status,
      path === '/analytics/top-affiliates' ? 200 : 404,
      path,
    );
  }
  t.is((await get(app.key, `/analytics/top-affiliates?campaign_id=${other.campaign_id}`)).status, 404);
  t.is((await get(app.key, `/analytics/top-affiliates?app_id=${other.app_id}`)).status, 404);
  const mine = await get(app.key, '/analytics/top-affiliates');
  t.deepEqual(
    mine.body.affiliates.map((a: { code: string }) => a.code),
    [app.creator_code],
    'only granted organizations',
  );
});

test('campaign localize: per-locale copy fresh until the source text changes, then listed stale', async (t) => {
  const app = await freshApp();
  const path = `/campaigns/${app.campaign_id}/localize`;
  const res = await agent(app.key, 'POST', path, {
    locales: { de: { name: 'Testkampagne', description: 'Empfiehl uns' }, 'pt-BR': { name: 'Campanha' } },
  });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.stale_locales, []);
  t.deepEqual(res.body.fresh_locales, ['de', 'pt-BR']);
  t.like(res.body.locales.de, { name: 'Testkampagne', description: 'Empfiehl uns', status: 'fresh', source_hash: res.body.source_hash });
  t.truthy(res.body.locales.de.updated_at);
  const stored = (await h().db('campaigns').where('id', app.campaign_id).first('i18n')).i18n;
  t.like(stored.de, { name: 'Testkampagne', source_hash: res.body.source_hash });

  const patched = await agent(app.key, 'PATCH', `/campaigns/${app.campaign_id}`, { description: 'New English copy' });
  t.is(patched.status, 200, patched.text);
  const after = await agent(app.key, 'POST', path, { locales: {} });
  t.is(after.status, 200, after.text);
  t.not(after.body.source_hash, res.body.source_hash);
  t.deepEqual(after.body.stale_locales, ['de', 'pt-BR']);
  t.is(after.body.locales.de.status, 'stale');

  const redone = await agent(app.key, 'POST', path, { locales: { de: { name: 'Testkampagne', description: 'Neuer Text' } } });
  t.deepEqual(redone.body.stale_locales, ['pt-BR']);
  t.deepEqual(redone.body.fresh_locales, ['de']);
  t.is(redone.body.locales['pt-BR'].name, 'Campanha', 'other locales are kept');

  // Any change of the source text counts, not only through the API.
  await h().db('campaigns').where('id', app.campaign_id).update({ name: 'Renamed' });
  t.deepEqual((await agent(app.key, 'POST', path, { locales: {} })).body.stale_locales, ['de', 'pt-BR']);
  const audit = await h().db('audit_log').where({ action: 'svc_localize_campaign' }).whereRaw('target_id = ?', [app.campaign_id]).first();
  t.truthy(audit);
});

test('app localize: name, description and tagline per locale; a direct source update makes them stale', async (t) => {
  const app = await freshApp();
  const path = `/apps/${app.app_id}/localize`;
  const res = await agent(app.key, 'POST', path, {
    locales: { fr: { name: 'Appli', description: 'Une appli', tagline: 'Vite' }, es: { name: 'Aplicación' } },
  });
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body.fresh_locales, ['es', 'fr']);
  t.like(res.body.locales.fr, { name: 'Appli', description: 'Une appli', tagline: 'Vite', status: 'fresh' });
  const row = await h().db('apps').where('id', app.app_id).first('name_i18n', 'tagline_i18n', 'i18n_meta');
  t.deepEqual(row.name_i18n, { fr: 'Appli', es: 'Aplicación' });
  t.deepEqual(row.tagline_i18n, { fr: 'Vite' });
  t.is(row.i18n_meta.fr.source_hash, res.body.source_hash);

  await h().db('apps').where('id', app.app_id).update({ tagline: 'Fast' });
  const after = await agent(app.key, 'POST', path, { locales: {} });
  t.deepEqual(after.body.stale_locales, ['es', 'fr']);
  const patched = await agent(app.key, 'PATCH', `/apps/${app.app_id}`, { name: 'Renamed app' });
  t.is(patched.status, 200, patched.text);
  const fr = await agent(app.key, 'POST', path, { locales: { fr: { name: 'Appli renommée' } } });
  t.deepEqual(fr.body.fresh_locales, ['fr']);
  t.deepEqual(fr.body.locales.fr, { ...fr.body.locales.fr, name: 'Appli renommée', status: 'fresh' });
  t.is(fr.body.locales.fr.tagline, undefined, 'a supplied locale replaces that locale whole');
});

test('localize: locale keys and fields validated (422), scopes (403 naming them), tenancy (404)', async (t) => {
  const app = await freshApp();
  const other = await freshApp();
  for (const locales of [
    { DE: { name: 'x' } },
    { de_DE: { name: 'x' } },
    { english: { name: 'x' } },
    { 'de-de': { name: 'x' } },
    { de: {} },
    { de: { name: '' } },
    { de: { slug: 'x' } },
  ]) {
    const res = await agent(app.key, 'POST', `/campaigns/${app.campaign_id}/localize`, { locales });
    t.is(res.status, 422, JSON.stringify(locales));
  }
  t.is((await agent(app.key, 'POST', `/apps/${app.app_id}/localize`, { locales: { 'en-GB': { tagline: 'Hi' } } })).status, 200);
  t.is((await agent(app.key, 'POST', `/apps/${app.app_id}/localize`, {})).status, 422);
  const noCampaignWrite = await keyWithout(app.org_id, 'campaigns:write');
  const res = await agent(noCampaignWrite, 'POST', `/campaigns/${app.campaign_id}/localize`, { locales: { de: { name: 'x' } } });
  t.is(res.status, 403);
  t.regex(JSON.stringify(res.body.detail), /campaigns:write/);
  const noAppWrite = await keyWithout(app.org_id, 'apps:write');
  const appRes = await agent(noAppWrite, 'POST', `/apps/${app.app_id}/localize`, { locales: { de: { name: 'x' } } });
  t.is(appRes.status, 403);
  t.regex(JSON.stringify(appRes.body.detail), /apps:write/);
  t.is((await agent(app.key, 'POST', `/campaigns/${other.campaign_id}/localize`, { locales: { de: { name: 'x' } } })).status, 404);
  t.is((await agent(app.key, 'POST', `/apps/${other.app_id}/localize`, { locales: { de: { name: 'x' } } })).status, 404);
  t.deepEqual((await h().db('campaigns').where('id', other.campaign_id).first('i18n')).i18n, {});
});

test('store search and scrape through the configured store API (a local stub); upstream failure is 502', async (t) => {
  const app = await freshApp();
  h().config.STORE_SEARCH_ROOT = 'http://127.0.0.1:9/';
  const down = await get(app.key, '/store/search?term=fit');
  t.is(down.status, 502, down.text);
  t.regex(down.body.detail, /store search/i);

  h().config.STORE_SEARCH_ROOT = stub.url;
  const res = await get(app.key, '/store/search?term=fit&platform=ios&country=DE&limit=5');
  t.is(res.status, 200, res.text);
  t.like(stub.calls.at(-1), { path: '/search', query: { term: 'fit', entity: 'software', country: 'de', limit: '5' } });
  t.is(res.body.count, 2);
  t.deepEqual(res.body.results[0], {
    store: 'app_store',
    id: '1234567890',
    name: 'Fit Habit: Workout Tracker',
    bundle_id: 'com.example.fithabit',
    developer: 'Example Labs GmbH',
    url: 'https://apps.apple.com/us/app/fit-habit/id1234567890?uo=4',
    icon_url: 'https://is1-ssl.mzstatic.com/image/thumb/fit/100x100bb.jpg',
    genre: 'Health & Fitness',
  });
  t.is((await get(app.key, '/store/search?term=planner')).body.results.length, 1);

  const byUrl = await get(app.key, `/store/scrape?url=${encodeURIComponent('https://apps.apple.com/us/app/fit-planner/id987654321')}`);
  t.is(byUrl.status, 200, byUrl.text);
  t.like(stub.calls.at(-1), { path: '/lookup', query: { id: '987654321', country: 'us' } });
  t.like(byUrl.body, {
    store: 'app_store',
    id: '987654321',
    name: 'Fit Planner',
    bundle_id: 'com.example.fitplanner',
    developer: 'Planner Co',
    description: 'Plan every session.',
  });
  t.like((await get(app.key, '/store/scrape?id=1234567890')).body, {
    name: 'Fit Habit: Workout Tracker',
    description: 'Build a workout habit in 10 minutes a day.',
  });
  t.is((await get(app.key, '/store/scrape?id=111111')).status, 404);

  for (const path of [
    '/store/search',
    '/store/search?term=fit&platform=android',
    '/store/search?term=fit&limit=51',
    '/store/scrape',
    '/store/scrape?url=https%3A%2F%2Fexample.com%2Fapp',
  ]) {
    t.is((await get(app.key, path)).status, 422, path);
  }
  stub.failWith = 503;
  try {
    const failed = await get(app.key, '/store/scrape?id=1234567890');
    t.is(failed.status, 502, failed.text);
    t.regex(failed.body.detail, /HTTP 503/);
  } finally {
    stub.failWith = null;
  }
  const narrow = await keyWithout(app.org_id, 'apps:read');
  const denied = await get(narrow, '/store/search?term=fit');
  t.is(denied.status, 403);
  t.regex(JSON.stringify(denied.body.detail), /apps:read/);
});

test('validation-status: path per platform, credential checks without secrets, webhook connection, rejected webhooks today', async (t) => {
  const app = await freshApp();
  const other = await freshApp();
  let res = await get(app.key, `/apps/${app.app_id}/validation-status`);
  t.is(res.status, 200, res.text);
  t.like(res.body.platforms.ios, {
    validation_path: 'subprovider',
    provider: 'subprovider',
    ready: false,
    store_credential: { present: false },
  });
  t.like(res.body.webhook, { connected: false, connected_at: null });
  t.like(res.body.rejected_webhooks_today, { total: 0 });

  await h().db('apps').where('id', app.app_id).update({ ios_validation_provider: 'app_store' });
  await h()
    .db('store_credentials')
    .insert({
      app_id: app.app_id,
      platform: 'ios',
      ciphertext: Buffer.from('secret-bytes'),
      iv: Buffer.from('iv'),
      auth_tag: Buffer.from('tag'),
      key_id: 'KEY123',
      check_status: 'failed',
      check_attempts: 2,
      checked_at: new Date(),
      last_error: 'Apple answered 401: bad key',
    });
  await sendWebhook(h().baseUrl, app.app_id, undefined, subscription('u', null)('initial_purchase'));
  await sendWebhook(h().baseUrl, app.app_id, 'wrong', subscription('u', null)('initial_purchase'));
  await sendWebhook(h().baseUrl, app.app_id, 'wrong', subscription('u', null)('initial_purchase'));
  await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, subscription('u2', null)('test'));

  res = await get(app.key, `/apps/${app.app_id}/validation-status`);
  t.like(res.body.platforms.ios, {
    validation_path: 'store-direct',
    provider: 'app_store',
    ready: false,
    store_credential: { present: true, check_status: 'failed', check_attempts: 2, last_error: 'Apple answered 401: bad key' },
  });
  t.truthy(res.body.platforms.ios.store_credential.checked_at);
  t.like(res.body.platforms.android, { validation_path: 'subprovider', ready: true });
  t.is(res.body.webhook.connected, true);
  t.like(res.body.rejected_webhooks_today, { total: 3, by_reason: { missing_authorization: 1, wrong_secret: 2 } });
  t.notRegex(res.text, /ciphertext|secret-bytes|auth_tag|c2VjcmV0/);

  t.is((await get(app.key, `/apps/${other.app_id}/validation-status`)).status, 404);
  const narrow = await keyWithout(app.org_id, 'apps:read');
  t.is((await get(narrow, `/apps/${app.app_id}/validation-status`)).status, 403);
});
