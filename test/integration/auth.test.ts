// The authenticate middleware resolves every credential kind from stored digests; the guard decides per route.
// Routes here are declared the way later surfaces declare theirs: a GuardRule in front of a handler.
import { Router } from '@koa/router';
import test from 'ava';
import { createAgentKey, revokeAgentKey } from '../../db/agent-keys-writes.js';
import { resolvePrincipal, SESSION_COOKIE } from '../../api/auth/authenticate.js';
import { guard } from '../../api/auth/guard.js';
import type { AppContext, RequestState } from '../../api/context.js';
import { generateToken, hashToken, SESSION_TOKEN_PREFIX } from '../../lib/credentials.js';
import { SCOPES } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const probes = new Router<RequestState, AppContext>();
probes.get('/test/agent-probe', guard({ allow: ['agent'], scope: 'apps:read' }), (ctx) => {
  ctx.body = { principal: ctx.state.principal };
});
probes.get('/test/sdk-probe', guard({ allow: ['sdk'] }), (ctx) => {
  ctx.body = { principal: ctx.state.principal };
});
probes.get('/test/dashboard-probe', guard({ allow: ['user'] }), (ctx) => {
  ctx.body = { principal: ctx.state.principal };
});
probes.post('/test/payout-probe', guard({ allow: ['agent', 'user'], deny: 'payouts' }), (ctx) => {
  ctx.body = { ok: true };
});

const { h, seed } = useSeededHarness(test, { worker: false, mount: (app) => app.use(probes.routes()) });
let userId: string;

test.before(async () => {
  await h.ready();
  userId = (await h().db('memberships').where('org_id', seed.org_id).first('user_id')).user_id;
});

test('each credential kind resolves to its principal', async (t) => {
  const db = h().db;
  t.like(await resolvePrincipal(db, seed.sdk_key), { kind: 'sdk', appId: seed.app_id, orgId: seed.org_id });
  t.like(await resolvePrincipal(db, seed.webhook_secret), { kind: 'webhook', appId: seed.app_id, orgId: seed.org_id });
  const agent = await resolvePrincipal(db, seed.agent_key);
  t.like(agent, { kind: 'agent', authMode: 'agent_key', orgIds: [seed.org_id] });
  t.deepEqual(agent?.kind === 'agent' ? [...agent.scopes].sort() : [], [...SCOPES].sort());
  t.is(await resolvePrincipal(db, 'it_unknownkey'), undefined);
  t.is(await resolvePrincipal(db, 'totally-unknown'), undefined);
});

test('credentials are stored only as digests', async (t) => {
  const app = await h().db('apps').where('id', seed.app_id).first();
  t.is(app.webhook_secret_hash, hashToken(seed.webhook_secret));
  t.false(JSON.stringify(app).includes(seed.webhook_secret));
  const key = await h().db('agent_keys').where('org_id', seed.org_id).first();
  t.false(JSON.stringify(key).includes(seed.agent_key));
});

test('a revoked or expired agent key no longer resolves and gets 401', async (t) => {
  const db = h().db;
  const revoked = await createAgentKey(db, { orgId: seed.org_id, name: 'to revoke', scopes: SCOPES });
  t.is((await request(h().baseUrl, 'GET', '/test/agent-probe', { token: revoked.key })).status, 200);
  t.true(await revokeAgentKey(db, revoked.id));
  t.is(await resolvePrincipal(db, revoked.key), undefined);
  const res = await request(h().baseUrl, 'GET', '/test/agent-probe', { token: revoked.key });
  t.is(res.status, 401);
  t.regex(res.body.detail, /invalid, expired or revoked/);
  t.false(res.text.includes(revoked.key));
  const expired = await createAgentKey(db, { orgId: seed.org_id, name: 'expired', scopes: SCOPES, expiresAt: new Date(Date.now() - 1000) });
  t.is(await resolvePrincipal(db, expired.key), undefined);
});

test('routes accept only the principal kinds they declare', async (t) => {
  const base = h().baseUrl;
  t.is((await request(base, 'GET', '/test/agent-probe')).status, 401);
  t.is((await request(base, 'GET', '/test/agent-probe', { token: seed.sdk_key })).status, 401);
  t.is((await request(base, 'GET', '/test/agent-probe', { token: seed.webhook_secret })).status, 401);
  t.is((await request(base, 'GET', '/test/agent-probe', { token: seed.agent_key })).status, 200);
  t.is((await request(base, 'GET', '/test/sdk-probe', { token: seed.sdk_key })).status, 200);
  t.is((await request(base, 'GET', '/test/sdk-probe', { token: seed.agent_key })).status, 401);
  t.is((await request(base, 'GET', '/test/dashboard-probe', { token: seed.agent_key })).status, 401);
});

test('a missing scope is 403 naming it; hard-denied actions are 403 for agents with every scope', async (t) => {
  const narrow = await createAgentKey(h().db, { orgId: seed.org_id, name: 'narrow', scopes: ['campaigns:read'] });
  const res = await request(h().baseUrl, 'GET', '/test/agent-probe', { token: narrow.key });
  t.is(res.status, 403);
  t.regex(res.body.detail, /apps:read/);
  const payout = await request(h().baseUrl, 'POST', '/test/payout-probe', { token: seed.agent_key, body: {} });
  t.is(payout.status, 403);
  t.regex(payout.body.detail, /payouts/);
});

test('a dashboard session resolves from its cookie with the user organizations; a bearer SDK key in a cookie does not', async (t) => {
  const token = generateToken(SESSION_TOKEN_PREFIX);
  await h()
    .db('sessions')
    .insert({ user_id: userId, token_hash: hashToken(token), expires_at: new Date(Date.now() + 3600_000) });
  const res = await request(h().baseUrl, 'GET', '/test/dashboard-probe', { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  t.is(res.status, 200);
  t.like(res.body.principal, { kind: 'user', userId, orgIds: [seed.org_id] });
  const smuggled = await request(h().baseUrl, 'GET', '/test/sdk-probe', { headers: { cookie: `${SESSION_COOKIE}=${seed.sdk_key}` } });
  t.is(smuggled.status, 401);
  // A state-changing call on the session cookie needs the session's CSRF token (api/auth/csrf.ts).
  const noCsrf = await request(h().baseUrl, 'POST', '/test/payout-probe', { body: {}, headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  t.is(noCsrf.status, 403);
  const { csrf_token } = (await request(h().baseUrl, 'GET', '/dashboard/session', { headers: { cookie: `${SESSION_COOKIE}=${token}` } }))
    .body;
  const payout = await request(h().baseUrl, 'POST', '/test/payout-probe', {
    body: {},
    headers: { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': csrf_token },
  });
  t.is(payout.status, 200);
});
