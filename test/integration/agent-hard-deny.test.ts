// The hard deny (spec "Authentication" 5; docs/decisions.md "Auth"): an agent with every scope asking for a delete,
// a money write, a payout, raw credentials or administration gets 403 naming the denied action, from the guard's
// `deny` rule, where these once answered 404 or 405; nobody else is affected (no credential: 401 or 405 as before),
// the calls an agent may make next to them still work, and none of them is in the OpenAPI document or the tool list.
import test from 'ava';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { deniedAction, HARD_DENIED_ROUTES } from '../../api/agent/hard-denied.js';
import { HARD_DENIED } from '../../lib/scopes.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { connectMcp } from '../helpers/mcp.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

const fill = (path: string) =>
  path
    .replace('{app_id}', seed.app_id)
    .replace('{campaign_id}', seed.campaign_id)
    .replace('{org_id}', seed.org_id)
    .replace(/\{\w+\}/g, 'x');

test.serial('every hard-denied action answers an agent with every scope 403 naming the action', async (t) => {
  t.deepEqual([...new Set(HARD_DENIED_ROUTES.map((r) => r.deny))].sort(), [...HARD_DENIED].sort(), 'each denied action has its routes');
  const auditBefore = await h().db('audit_log').count<{ count: string }[]>('* as count');
  for (const route of HARD_DENIED_ROUTES) {
    for (const example of route.examples) {
      for (const method of route.methods) {
        const res = await request(h().baseUrl, method, `/api/agent${fill(example)}`, {
          token: seed.agent_key,
          body: method === 'GET' ? undefined : { amount_usd: 100, org_id: seed.org_id },
        });
        t.is(res.status, 403, `${method} ${example}: ${res.text}`);
        t.is(res.body.detail, `'${route.deny}' is denied to every agent; a human must do this in the dashboard.`, `${method} ${example}`);
      }
    }
  }
  // Deletes of what the agent can read and change: still 403, and the rows are there.
  for (const path of [`/apps/${seed.app_id}`, `/campaigns/${seed.campaign_id}`, '/wallet/topup-link', '/nothing/here']) {
    const res = await request(h().baseUrl, 'DELETE', `/api/agent${path}`, { token: seed.agent_key });
    t.is(res.status, 403, path);
    t.regex(res.body.detail, /^'delete' is denied to every agent/);
  }
  t.truthy(await h().db('apps').where('id', seed.app_id).first());
  t.truthy(await h().db('campaigns').where('id', seed.campaign_id).first());
  t.deepEqual(await h().db('audit_log').count<{ count: string }[]>('* as count'), auditBefore, 'a refusal is no change');
});

test.serial('the calls beside them still work, and only agents are refused this way', async (t) => {
  const agent = (method: string, path: string, body?: unknown) =>
    request(h().baseUrl, method, `/api/agent${path}`, { token: seed.agent_key, body });
  t.is((await agent('GET', '/wallet')).status, 200);
  t.is((await agent('POST', '/wallet/topup-link', { amount_usd: 100 })).status, 200, 'the human top-up link is no money write');
  t.is((await agent('GET', `/apps/${seed.app_id}`)).status, 200);
  t.is((await agent('PUT', '/wallet/topup-link')).status, 405, 'a wrong method of a served path that moves nothing keeps its 405');
  t.is((await agent('GET', '/payouts')).status, 404, 'a read that does not exist stays 404');
  // No credential, or a dashboard session: the answers of before (401 from the surface, 405 on the open document).
  t.is((await request(h().baseUrl, 'DELETE', `/api/agent/apps/${seed.app_id}`)).status, 401);
  t.is((await request(h().baseUrl, 'POST', '/api/agent/wallet/topup')).status, 401);
  t.is((await request(h().baseUrl, 'DELETE', '/api/agent/openapi.json')).status, 405);
  const session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const user = await request(h().baseUrl, 'DELETE', `/api/agent/apps/${seed.app_id}`, { headers: { cookie: session.cookie } });
  t.is(user.status, 401);
  // The tool server's own DELETE (ending an MCP session) is no agent API path.
  t.is(deniedAction('DELETE', '/mcp'), undefined);
});

test.serial('no hard-denied action is in the OpenAPI document, the endpoint table or the tool list', async (t) => {
  const doc = (await request(h().baseUrl, 'GET', '/api/agent/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const method of Object.keys(operations)) {
      t.is(deniedAction(method.toUpperCase(), `/api/agent${fill(path)}`), undefined, `${method} ${path} is documented and denied`);
    }
  }
  for (const e of AGENT_ENDPOINTS) t.is(deniedAction(e.method.toUpperCase(), `/api/agent${fill(e.path)}`), undefined, e.tool);
  for (const route of HARD_DENIED_ROUTES)
    for (const example of route.examples)
      for (const method of route.methods) t.falsy(doc.paths[example]?.[method.toLowerCase()], `${method} ${example}`);
  const mcp = await connectMcp(h().baseUrl, seed.agent_key);
  try {
    const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    t.true(names.includes('svc_get_wallet_topup_link'));
    const served = new Set(AGENT_ENDPOINTS.flatMap((e) => [e.tool, ...(e.tools ?? []).map((x) => x.name)]));
    for (const name of names.filter((n) =>
      /delete|remove|payout|transfer|admin|agent_key|raw_credential|withdraw_(?:funds|money|balance)/.test(n),
    )) {
      t.fail(`the tool list offers ${name}${served.has(name) ? ' (an endpoint row)' : ''}`);
    }
  } finally {
    await mcp.close();
  }
});
