// Tool calls go through the same guard and handler as REST, and REST's refusals become tool errors an agent can act
// on: a missing scope names the scope, another organization's id is "not found", a wallet below the minimum carries
// the top-up hint, invalid arguments list the fields exactly like the REST 422 body. Same answers as REST, same audit.
import test from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { request } from '../helpers/http.js';
import { connectMcp, ok, textOf, type McpSession } from '../helpers/mcp.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

let mcp: McpSession;
let other: SeededApp;
test.before(async () => {
  await h.ready();
  mcp = await connectMcp(h().baseUrl, seed.agent_key);
  other = await seedApp(h().db);
});
test.after.always(async () => {
  await mcp?.close();
});

const rest = (method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token: seed.agent_key, body });

test('a tool answers what its REST endpoint answers', async (t) => {
  const viaTool = ok(await mcp.call('svc_get_app', { app_id: seed.app_id }));
  const viaRest = await rest('GET', `/apps/${seed.app_id}`);
  t.is(viaRest.status, 200);
  t.deepEqual(viaTool, viaRest.body);
  const events = ok(await mcp.call('svc_recent_events', { app_id: seed.app_id, limit: 5, environment: 'PRODUCTION' }));
  t.deepEqual(events, (await rest('GET', `/apps/${seed.app_id}/events/recent?limit=5&environment=PRODUCTION`)).body);
});

test('a missing scope is a tool error naming the scope', async (t) => {
  const narrow = await createAgentKey(h().db, { orgId: seed.org_id, name: 'apps only', scopes: ['apps:read'] });
  const limited = await connectMcp(h().baseUrl, narrow.key);
  try {
    const refused = await limited.call('svc_list_campaigns');
    t.true(refused.isError);
    t.regex(textOf(refused), /Missing scope 'campaigns:read'/);
    t.like(refused.structuredContent, { error: { status: 403, code: 'missing_scope', scope: 'campaigns:read' } });
    t.false(ok(await limited.call('svc_list_apps')).apps.length === 0);
  } finally {
    await limited.close();
  }
});

test("another organization's id is not found (never forbidden)", async (t) => {
  for (const [tool, args] of [
    ['svc_get_app', { app_id: other.app_id }],
    ['svc_get_campaign', { campaign_id: other.campaign_id }],
    ['svc_update_app', { app_id: other.app_id, name: 'Mine now' }],
  ] as const) {
    const res = await mcp.call(tool, args);
    t.true(res.isError, tool);
    t.regex(textOf(res), /^Not found: /, tool);
    t.like(res.structuredContent, { error: { status: 404, code: 'not_found' } }, tool);
  }
  t.is((await rest('GET', `/apps/${other.app_id}`)).status, 404, 'REST agrees');
});

test('a wallet below the minimum is a tool error carrying the top-up-link hint', async (t) => {
  const poor = await seedApp(h().db, { walletUsd: 0 });
  const key = await createAgentKey(h().db, { orgId: poor.org_id, name: 'poor', scopes: ['campaigns:read', 'campaigns:write'] });
  const agent = await connectMcp(h().baseUrl, key.key);
  try {
    const draft = ok(await agent.call('svc_create_campaign', { app_id: poor.app_id, name: 'Needs funds', commission_percentage: 20 }));
    t.is(draft.status, 'draft');
    const refused = await agent.call('svc_set_campaign_status', { campaign_id: draft.id, status: 'active' });
    t.true(refused.isError);
    t.regex(textOf(refused), /POST \/api\/agent\/wallet\/topup-link/, 'the REST detail with its hint');
    t.regex(textOf(refused), /svc_get_wallet_topup_link/, 'and the tool that gets the link');
    t.like(refused.structuredContent, {
      error: { status: 402, code: 'payment_required', next_tool: 'svc_get_wallet_topup_link', call: 'POST /api/agent/wallet/topup-link' },
    });
  } finally {
    await agent.close();
  }
});

test('errors that point at another action name its tool and REST call, as a tool as over REST', async (t) => {
  const poor = await seedApp(h().db, { walletUsd: 0 });
  const key = await createAgentKey(h().db, { orgId: poor.org_id, name: 'poor', scopes: ['apps:write', 'campaigns:write', 'apps:read'] });
  const agent = await connectMcp(h().baseUrl, key.key);
  const viaRest = (method: string, path: string, body?: unknown) =>
    request(h().baseUrl, method, `/api/agent${path}`, { token: key.key, body });
  try {
    // An organization name an agent key does not reach: 422 on org_name, pointing at svc_create_org.
    const input = {
      app: { name: `Elsewhere ${poor.org_id}` },
      campaign: { name: 'Launch', commission_percentage: 10 },
      org_name: 'Not Mine',
    };
    const foreign = await agent.call('svc_provision', input);
    t.true(foreign.isError);
    t.regex(textOf(foreign), /body\.org_name: .*svc_create_org/);
    t.regex(textOf(foreign), /As a tool: call svc_create_org/);
    t.like(foreign.structuredContent, { error: { status: 422, next_tool: 'svc_create_org', call: 'POST /api/agent/organizations' } });
    t.like((await viaRest('POST', '/provision', input)).body, { next_tool: 'svc_create_org', call: 'POST /api/agent/organizations' });

    // Store-direct before any credential: 409 pointing at the upload link of this app.
    const noCredential = await agent.call('svc_activate_store_direct', { app_id: poor.app_id, platform: 'android' });
    t.true(noCredential.isError);
    t.like(noCredential.structuredContent, {
      error: {
        status: 409,
        next_tool: 'svc_get_credential_upload_link',
        call: `POST /api/agent/apps/${poor.app_id}/credential-setup-link`,
      },
    });
    t.regex(textOf(noCredential), /As a tool: call svc_get_credential_upload_link/);

    // Provision with activate left out on a short wallet: created, campaign in draft, the top-up tool next.
    const provisioned = ok(
      await agent.call('svc_provision', { app: { name: `Short ${poor.org_id}` }, campaign: { name: 'Launch', commission_percentage: 10 } }),
    );
    t.like(provisioned, { campaign_status: 'draft', next_tool: 'svc_get_wallet_topup_link', call: 'POST /api/agent/wallet/topup-link' });
    t.regex(provisioned.webhook_secret, /^rc_webhook_/);
    // activate true: all or nothing, the 402 names the same tool and nothing is written.
    const explicit = await agent.call('svc_provision', {
      app: { name: `Explicit ${poor.org_id}` },
      campaign: { name: 'Launch', commission_percentage: 10 },
      activate: true,
    });
    t.true(explicit.isError);
    t.like(explicit.structuredContent, {
      error: { status: 402, next_tool: 'svc_get_wallet_topup_link', call: 'POST /api/agent/wallet/topup-link' },
    });
    t.is(
      (
        await h()
          .db('apps')
          .where({ org_id: poor.org_id, name: `Explicit ${poor.org_id}` })
          .select('id')
      ).length,
      0,
    );
  } finally {
    await agent.close();
  }
});

test('invalid arguments are a tool error listing the fields like the REST 422 body', async (t) => {
  const body = { commission_percentage: 'lots', campaign_type: 'secret' };
  const viaRest = await rest('POST', `/apps/${seed.app_id}/campaigns`, body);
  t.is(viaRest.status, 422);
  const res = await mcp.call('svc_create_campaign', { app_id: seed.app_id, ...body });
  t.true(res.isError);
  t.deepEqual((res.structuredContent as any).error.detail, viaRest.body.detail);
  for (const field of ['body.name', 'body.commission_percentage', 'body.campaign_type']) t.true(textOf(res).includes(field), field);

  const query = await mcp.call('svc_recent_events', { app_id: seed.app_id, limit: 'many' });
  t.regex(textOf(query), /query\.limit: must be integer/);
  const extra = await mcp.call('svc_get_app', { app_id: seed.app_id, colour: 'blue' });
  t.regex(textOf(extra), /arguments\.colour: Extra inputs are not permitted \(extra_forbidden\)/);
  const noPath = await mcp.call('svc_get_app', {});
  t.regex(textOf(noPath), /path\.app_id: Field required \(missing\)/);
  const wrongType = await mcp.call('svc_get_app', { app_id: 42 });
  t.regex(textOf(wrongType), /path\.app_id: must be a non-empty string/);
  t.deepEqual((res.structuredContent as any).error.status, 422);
});

test('an unknown tool is a protocol error (InvalidParams)', async (t) => {
  const err = await t.throwsAsync(mcp.call('svc_delete_everything'));
  t.regex(err.message, /-32602.*Unknown tool: svc_delete_everything/);
});

test('a mutating tool call is audited like REST, with the agent as actor and the tool as action', async (t) => {
  const created = ok(await mcp.call('svc_create_campaign', { app_id: seed.app_id, name: 'Audited via MCP', commission_percentage: 15 }));
  // Tests of this file run concurrently: only this organization's app is created on through the seeded key.
  const rows = await h().db('audit_log').where({ action: 'svc_create_campaign', org_id: seed.org_id, target_id: seed.app_id });
  t.is(rows.length, 1, 'one audited call (the refused 422 one is not audited)');
  t.is(rows[0].actor_type, 'agent_key');
  t.truthy(rows[0].request_id);
  t.is((await rest('GET', `/campaigns/${created.id}`)).body.name, 'Audited via MCP');
});

test('a bonus of fractions of a cent is the same 422 naming bonus_rules through the tool and REST; nothing is written', async (t) => {
  const rules = [{ threshold_conversions: 3, bonus_usd: 9.9975 }];
  const res = await mcp.call('svc_update_campaign', { campaign_id: seed.campaign_id, bonus_rules: rules });
  t.true(res.isError);
  const viaRest = await rest('PATCH', `/campaigns/${seed.campaign_id}`, { bonus_rules: rules });
  t.is(viaRest.status, 422);
  t.regex(JSON.stringify(viaRest.body.detail), /bonus_rules.*bonus_usd.*whole cents/);
  t.deepEqual((res.structuredContent as any).error.detail, viaRest.body.detail);
  t.is(await h().db('bonus_rules').where({ campaign_id: seed.campaign_id, bonus_micros: 9_997_500 }).first(), undefined);
});
