// The agent REST API's foundation: whoami and doctor, the scope table applied to every route, tenancy (404 outside
// the granted organizations), no agent route answering 2xx to deletes, no agent moving money (the hard deny, checked on
// the ledger), audit, and the OpenAPI
// document generated from the same table.
import test from 'ava';
import { createAgentKey, revokeAgentKey } from '../../db/agent-keys-writes.js';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { HARD_DENIED, SCOPES } from '../../lib/scopes.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { countRows } from '../helpers/db.js';
import { request } from '../helpers/http.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedAccount } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let other: Awaited<ReturnType<typeof seedAccount>>;

test.before(async () => {
  await h.ready();
  other = await seedAccount(h().db);
});

const agent = (path: string, token = seed.agent_key, method = 'GET', body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });

test('whoami: auth mode, principal, granted and hard-denied scopes, organizations', async (t) => {
  const res = await agent('/whoami');
  t.is(res.status, 200);
  t.like(res.body, { auth_mode: 'agent_key', principal: { type: 'agent_key' } });
  t.deepEqual([...res.body.scopes].sort(), [...SCOPES].sort());
  t.deepEqual(res.body.hard_denied, [...HARD_DENIED]);
  t.deepEqual(
    res.body.organizations.map((o: { id: string }) => o.id),
    [seed.org_id],
  );
  t.false(res.text.includes(seed.agent_key));
});

test('whoami and doctor need no scope; doctor reports app count and SDK-init freshness', async (t) => {
  const narrow = await createAgentKey(h().db, { orgId: other.org_id, name: 'narrow', scopes: ['assets:read'] });
  t.is((await agent('/whoami', narrow.key)).status, 200);
  const before = await agent('/doctor', narrow.key);
  t.is(before.status, 200);
  t.like(before.body, { app_count: 1, ok: false });
  t.false(before.body.apps[0].sdk_init_fresh);
  t.true(before.body.problems.some((p: string) => p.includes('never called init')));
  await sdkClient(h().baseUrl, other.sdk_key).post('/init', { app_version: '1.0', sdk_version: '1.6.1', platform: 'ios' });
  const after = await agent('/doctor', narrow.key);
  t.true(after.body.apps[0].sdk_init_fresh);
  t.truthy(after.body.apps[0].platforms.ios.at);
});

test("apps and campaigns: only the granted organizations; another org's id is 404, never 403", async (t) => {
  const apps = await agent('/apps');
  t.deepEqual(
    apps.body.apps.map((a: { app_id: string }) => a.app_id),
    [seed.app_id],
  );
  t.false(apps.text.includes('webhook_secret_hash'));
  const app = await agent(`/apps/${seed.app_id}`);
  t.like(app.body, { app_id: seed.app_id, sdk_key: seed.sdk_key, webhook_url: `${h().baseUrl}/api/webhooks/subprovider/${seed.app_id}` });
  t.is((await agent(`/apps/${other.app_id}`)).status, 404);
  t.is((await agent('/apps/app_doesnotexist')).status, 404);
  const campaigns = await agent('/campaigns');
  t.deepEqual(
    campaigns.body.campaigns.map((c: { id: string }) => c.id),
    [seed.campaign_id],
  );
  t.like((await agent(`/campaigns/${seed.campaign_id}`)).body, { status: 'active', commission_percentage: 30, campaign_type: 'public' });
  t.is((await agent(`/campaigns/${other.campaign_id}`)).status, 404);
});

test('a missing scope is 403 naming it', async (t) => {
  const campaignsOnly = await createAgentKey(h().db, { orgId: seed.org_id, name: 'campaigns only', scopes: ['campaigns:read'] });
  const res = await agent('/apps', campaignsOnly.key);
  t.is(res.status, 403);
  t.regex(res.body.detail, /apps:read/);
  t.is((await agent('/campaigns', campaignsOnly.key)).status, 200);
});

test('SDK keys, missing and revoked credentials get 401 on the agent API', async (t) => {
  t.is((await agent('/whoami', seed.sdk_key)).status, 401);
  t.is((await request(h().baseUrl, 'GET', '/api/agent/whoami')).status, 401);
  const revoked = await createAgentKey(h().db, { orgId: seed.org_id, name: 'revoked', scopes: [...SCOPES] });
  await revokeAgentKey(h().db, revoked.id);
  t.is((await agent('/whoami', revoked.key)).status, 401);
  // The dashboard REST (/api/apps/*, /api/campaigns/* without /agent/) takes only a browser session.
  for (const path of [`/api/apps/${seed.app_id}`, `/api/campaigns/${seed.campaign_id}`]) {
    t.is((await request(h().baseUrl, 'GET', path, { token: seed.agent_key })).status, 401, path);
  }
});

test('no agent route answers 2xx to a delete', async (t) => {
  const paths = [
    ...new Set(
      AGENT_ENDPOINTS.map((e) =>
        e.path
          .replace('{app_id}', seed.app_id)
          .replace('{campaign_id}', seed.campaign_id)
          .replace(/\{\w+\}/g, 'x'),
      ),
    ),
  ];
  for (const path of [...paths, '/agent-keys', '/admin/users']) {
    const res = await agent(path, seed.agent_key, 'DELETE');
    t.true(res.status >= 400, `DELETE ${path} answered ${res.status}`);
  }
});

test(
  'hard deny on money: with every scope, an agent moves no money through ' +
    'the money endpoints (wallet, top-up, payouts) and the ledger is unchanged',
  async (t) => {
    const db = h().db;
    const snapshot = async () => ({
      entries: await db('wallet_ledger')
        .where('org_id', seed.org_id)
        .orderBy('id')
        .select('id', 'entry_type', 'balance_delta_micros', 'reserved_delta_micros'),
      totals: await getWalletTotals(db, seed.org_id),
      commissions: await countRows(db('commissions').where('org_id', seed.org_id)),
    });
    const before = await snapshot();
    t.true(before.totals.balanceMicros > 0, 'the seeded wallet holds money to move');
    // The money endpoints: every wallet, top-up, transfer and payout entry of the agent table (payouts join this list
    // once built) and the spec's money writes by name.
    const tableMoney = AGENT_ENDPOINTS.filter((e) => /wallet|top-?up|payout|transfer/.test(e.path));
    t.true(tableMoney.length >= 2, 'the wallet and its top-up link are in the table');
    const paths = [...new Set([...tableMoney.map((e) => e.path), '/wallet/topup', '/wallet/transfer', '/payouts', '/payouts/x/approve'])];
    const write = { org_id: seed.org_id, amount_usd: 100, amount_micros: 100_000_000 };
    for (const path of paths) {
      const own = AGENT_ENDPOINTS.find((e) => e.path === path)?.method;
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => m.toLowerCase() !== own)) {
        const res = await agent(path.replace(/\{\w+\}/g, 'x'), seed.agent_key, method, write);
        t.true(res.status >= 400 && res.status < 500, `${method} ${path} answered ${res.status}`);
      }
    }
    // The ones that exist, called as designed: a read, and a link for a human (which moves nothing).
    t.is((await agent('/wallet')).status, 200);
    const link = await agent('/wallet/topup-link', seed.agent_key, 'POST', { amount_usd: 500 });
    t.is(link.status, 200, link.text);
    // Nor can the agent spend the human's link: the page takes no money write.
    const url = new URL(link.body.url as string);
    const spend = await request(h().baseUrl, 'POST', `${url.pathname}${url.search}`, { token: seed.agent_key, body: { amount_usd: 500 } });
    t.true(spend.status >= 400 && spend.status < 500, `POST to the top-up link answered ${spend.status}`);
    t.deepEqual(await snapshot(), before, 'the ledger, the wallet totals and the commissions are unchanged');
  },
);

test('the scope table names a scope for every endpoint but whoami and doctor, and tools are unique', (t) => {
  for (const e of AGENT_ENDPOINTS) {
    if (e.path === '/whoami' || e.path === '/doctor') t.deepEqual(e.scopes, []);
    else t.true(e.scopes.length > 0, e.path);
  }
  t.is(new Set(AGENT_ENDPOINTS.map((e) => e.tool)).size, AGENT_ENDPOINTS.length);
});

test('openapi.json is OpenAPI 3.1 from the same table: every served endpoint with its scopes and both security schemes', async (t) => {
  const res = await request(h().baseUrl, 'GET', '/api/agent/openapi.json');
  t.is(res.status, 200);
  t.is(res.body.openapi, '3.1.0');
  t.truthy(res.body.components.securitySchemes.agentKey);
  t.truthy(res.body.components.securitySchemes.oauth2);
  for (const e of AGENT_ENDPOINTS.filter((x) => x.handler)) {
    const op = res.body.paths[e.path]?.[e.method];
    t.truthy(op, `${e.method} ${e.path}`);
    t.is(op.operationId, e.tool);
    t.deepEqual(op['x-required-scopes'], [...e.scopes]);
  }
});

test('apple-meta stores the non-secret Apple settings; bad values are 422 naming the field', async (t) => {
  const res = await agent(`/apps/${seed.app_id}/apple-meta`, seed.agent_key, 'PATCH', {
    issuer_id: '57246542-96fe-1a63-e053-0824d011072a',
    key_id: '2X9R4HXF34',
    environment: 'sandbox',
    app_apple_id: '1234567890',
  });
  t.is(res.status, 200, res.text);
  t.like(res.body.apple_meta, { key_id: '2X9R4HXF34', environment: 'sandbox' });
  const row = await h().db('apps').where('id', seed.app_id).first('app_store_id', 'apple_meta');
  t.is(row.app_store_id, '1234567890');
  const bad = await agent(`/apps/${seed.app_id}/apple-meta`, seed.agent_key, 'PATCH', { key_id: 'short', private_key: '-----BEGIN' });
  t.is(bad.status, 422);
  const locs = bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
  t.true(locs.includes('body.key_id'));
  t.true(locs.includes('body.private_key'));
  t.is((await agent(`/apps/${other.app_id}/apple-meta`, seed.agent_key, 'PATCH', { key_id: '2X9R4HXF34' })).status, 404);
});

test('GET campaign and app show per-locale freshness', async (t) => {
  const campaign = await agent(`/campaigns/${seed.campaign_id}`);
  t.true(Array.isArray(campaign.body.i18n.stale_locales));
  const app = await agent(`/apps/${seed.app_id}`);
  t.true(Array.isArray(app.body.i18n.stale_locales));
  t.deepEqual(app.body.name_i18n, {}, "the spec's localized maps sit beside their freshness");
  t.false('i18n_meta' in app.body);
});
