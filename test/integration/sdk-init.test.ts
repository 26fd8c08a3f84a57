// POST /api/sdk/init and GET /api/sdk/campaigns, plus what every SDK route shares: SDK-key auth and validation.
import test from 'ava';
import { createApp } from '../../db/apps-writes.js';
import { createCampaign } from '../../db/campaigns-writes.js';
import { STORE_VERIFIER } from '../../lib/validation-providers.js';
import { request } from '../helpers/http.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedAccount } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let other: Awaited<ReturnType<typeof seedAccount>>;
const initBody = { app_version: '2.3.0', sdk_version: '1.6.1', platform: 'ios', sdk_name: 'react-native' };

test.before(async () => {
  await h.ready();
  other = await seedAccount(h().db);
  const db = h().db;
  await createCampaign(db, {
    appId: seed.app_id,
    orgId: seed.org_id,
    name: 'Private VIP',
    campaignType: 'private',
    commissionPercentage: 40,
    status: 'active',
  });
  await createCampaign(db, {
    appId: seed.app_id,
    orgId: seed.org_id,
    name: 'Paused',
    campaignType: 'public',
    commissionPercentage: 10,
    status: 'paused',
  });
  await createCampaign(db, { appId: seed.app_id, orgId: seed.org_id, name: 'Draft', campaignType: 'public', commissionPercentage: 10 });
});

test('init answers every field with its type and lists every active campaign', async (t) => {
  const res = await sdkClient(h().baseUrl, seed.sdk_key).post('/init', initBody);
  t.is(res.status, 200);
  const b = res.body;
  t.is(b.app_id, seed.app_id);
  t.is(typeof b.app_name, 'string');
  t.is(b.attribution_window_hours, 72);
  t.is(b.store_direct, false);
  t.is(b.initialized, true);
  t.deepEqual(b.campaigns.map((c: { name: string }) => c.name).sort(), ['Launch campaign', 'Private VIP']);
  for (const c of b.campaigns) {
    t.deepEqual(Object.keys(c).sort(), ['description', 'id', 'name']);
  }
});

test('init marks the SDK as initialized with name, version, platform and time', async (t) => {
  const fresh = await createApp(h().db, { orgId: seed.org_id, name: 'Never initialized', slug: `fresh-${Date.now()}` });
  const app = await h().db('apps').where('id', fresh.id).first();
  t.is(app.sdk_initialized_at, null);
  await sdkClient(h().baseUrl, fresh.sdkKey).post('/init', { ...initBody, platform: 'android', sdk_name: 'android', runtime: undefined });
  const after = await h().db('apps').where('id', fresh.id).first();
  t.truthy(after.sdk_initialized_at);
  t.like(after, { sdk_name: 'android', sdk_version: '1.6.1', sdk_platform: 'android' });
  t.like(after.sdk_init_meta.android, { sdk_name: 'android', sdk_version: '1.6.1', app_version: '2.3.0' });
  t.truthy(after.sdk_init_meta.android.at);
});

test('store_direct reflects the platform validation provider', async (t) => {
  const app = await createApp(h().db, { orgId: seed.org_id, name: 'Store direct app', slug: `sd-${Date.now()}` });
  await h()
    .db('apps')
    .where('id', app.id)
    .update({ ios_validation_provider: STORE_VERIFIER.ios, android_validation_provider: 'subprovider' });
  const client = sdkClient(h().baseUrl, app.sdkKey);
  t.is((await client.post('/init', { ...initBody, platform: 'ios' })).body.store_direct, true);
  t.is((await client.post('/init', { ...initBody, platform: 'android' })).body.store_direct, false);
  t.is((await client.post('/init', { ...initBody, platform: 'web' })).body.store_direct, false);
});

test('a missing or mistyped field is 422 listing the fields; extra fields are ignored; non-JSON is 400', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  const res = await client.post('/init', { sdk_version: 5, platform: 'windows' });
  t.is(res.status, 422);
  const fields = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort();
  t.deepEqual(fields, ['body.app_version', 'body.platform', 'body.sdk_version']);
  t.is((await client.post('/init', { ...initBody, surprise: { nested: true } })).status, 200);
  const bad = await request(h().baseUrl, 'POST', '/api/sdk/init', { token: seed.sdk_key, rawBody: 'app_version=1' });
  t.is(bad.status, 400);
  t.truthy(bad.body.detail);
});

test('SDK key auth: missing or wrong key 401 with detail; an SDK key is useless outside /api/sdk', async (t) => {
  const none = await request(h().baseUrl, 'POST', '/api/sdk/init', { body: initBody });
  t.is(none.status, 401);
  t.truthy(none.body.detail);
  const wrong = await request(h().baseUrl, 'POST', '/api/sdk/init', { body: initBody, token: 'it_not_a_real_key' });
  t.is(wrong.status, 401);
  const agentKey = await request(h().baseUrl, 'POST', '/api/sdk/init', { body: initBody, token: seed.agent_key });
  t.is(agentKey.status, 401);
  for (const path of ['/api/agent/whoami', '/api/agent/apps', '/api/apps/x', '/api/campaigns/y']) {
    const res = await request(h().baseUrl, 'GET', path, { token: seed.sdk_key });
    t.is(res.status, 401, path);
  }
});

test('each SDK key sees only its own app', async (t) => {
  const mine = await sdkClient(h().baseUrl, other.sdk_key).post('/init', initBody);
  t.is(mine.body.app_id, other.app_id);
  t.false(mine.body.campaigns.some((c: { name: string }) => c.name === 'Private VIP'));
});

test('campaigns lists active public campaigns only, with commission as a number', async (t) => {
  const res = await sdkClient(h().baseUrl, seed.sdk_key).get('/campaigns');
  t.is(res.status, 200);
  t.deepEqual(res.body, [
    { id: seed.campaign_id, name: 'Launch campaign', description: '30% of every purchase for 12 months', commission_percentage: 30 },
  ]);
});
