// The live tool list, read with the official SDK client over HTTP, against the endpoint table
// (api/agent/endpoints.ts): every row's tools with the row's scopes, honest annotations and an input schema merged
// from the row's own JSON Schemas; the resources; and the registry seam (extra tools, svc://sdk/{platform}).
import test from 'ava';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_ENDPOINTS, endpointTools } from '../../api/agent/endpoints.js';
import { openApiDocument } from '../../api/agent/openapi.js';
import type { ExtraTool } from '../../api/mcp/extra-tools.js';
import { mcpRoutes } from '../../api/mcp/koa-mount.js';
import { TOOL_DOCS } from '../../api/mcp/tool-docs.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES } from '../../lib/scopes.js';
import { REGISTRY_TOOLS } from '../../sdk-registry/tools.js';
import { connectMcp, ok, readJsonResource, textOf } from '../helpers/mcp.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { providerEvent, sendWebhook } from '../helpers/subprovider-events.js';

// Shaped like the SDK registry's error (another branch): recognised by its `fields`, not by its class.
class RegistryInputError extends Error {
  constructor(readonly fields: { loc: string[]; msg: string; type: string }[]) {
    super('invalid input');
  }
}

const guideTool: ExtraTool = {
  name: 'svc_test_sdk_guide',
  title: 'SDK guide (test)',
  description: 'Stands in for a registry tool.',
  inputSchema: { type: 'object', properties: { platform: { type: 'string' } }, required: ['platform'] },
  outputSchema: { type: 'object', properties: { platform: { type: 'string' }, init_url: { type: 'string' } } },
  run(input, ctx) {
    if (input.platform !== 'ios') throw new RegistryInputError([{ loc: ['platform'], msg: "unknown platform 'x'", type: 'enum' }]);
    return { platform: 'ios', init_url: `${ctx.baseUrl}/api/sdk/init` };
  },
};

const { h, seed } = useSeededHarness(test, {
  worker: false,
  mount: (app) => {
    const seam = mcpRoutes({
      path: '/mcp-seam',
      extraTools: [guideTool],
      sdkResource: (platform, ctx) => (platform === 'ios' ? { platform, base_url: ctx.baseUrl } : undefined),
    });
    app.use(seam.routes());
  },
});

// The spec's tool names ("Agent REST API" tool column, "Tools with no account endpoint"), written out here on purpose,
// plus svc_withdraw_invitation for the withdraw endpoint the invitation states imply.
const SPEC_TOOLS = [
  'svc_whoami',
  'svc_doctor',
  'svc_create_org',
  'svc_search_store',
  'svc_scrape_store',
  'svc_check_slug',
  'svc_provision',
  'svc_regenerate_webhook_secret',
  'svc_get_validation_status',
  'svc_get_credential_upload_link',
  'svc_set_apple_meta',
  'svc_validate_store_credentials',
  'svc_activate_store_direct',
  'svc_integration_status',
  'svc_recent_events',
  'svc_test_integration',
  'svc_verify_user_conversions',
  'svc_list_apps',
  'svc_get_app',
  'svc_update_app',
  'svc_list_campaigns',
  'svc_get_campaign',
  'svc_update_campaign',
  'svc_create_campaign',
  'svc_set_campaign_status',
  'svc_list_bonus_awards',
  'svc_review_bonus_award',
  'svc_get_analytics_overview',
  'svc_get_campaign_funnel',
  'svc_list_top_affiliates',
  'svc_get_daily_performance',
  'svc_list_commissions',
  'svc_list_affiliates',
  'svc_invite_creator',
  'svc_invite_creators_batch',
  'svc_get_join_link',
  'svc_list_invitations',
  'svc_list_free_codes',
  'svc_create_free_code',
  'svc_list_assets',
  'svc_set_asset_featured',
  'svc_get_asset_upload_link',
  'svc_get_wallet',
  'svc_get_wallet_topup_link',
  'svc_localize_campaign',
  'svc_localize_app',
  'svc_list_sdks',
  'svc_recommend_sdk',
  'svc_recommend_validation',
  'svc_explain_contract',
  'svc_scaffold_install',
  'svc_scaffold_init',
  'svc_scaffold_attribution',
  'svc_scaffold_manual_code',
  'svc_scaffold_report_purchase',
  'svc_scaffold_full',
  'svc_recommend_validation_for_platforms',
  'svc_setup_subprovider',
  'svc_withdraw_invitation',
  // CONTRACT.md "Creator offer codes" (issue 38).
  'svc_add_offer_code',
  'svc_list_offer_codes',
  'svc_retire_offer_code',
  // CONTRACT.md "Review of suspicious commissions" (issue 40).
  'svc_list_reviews',
  'svc_review_commission',
];

// Independent of api/mcp/tool-effects.ts on purpose: changing an annotation must change this test too. The rule per
// write tool (what a call does to the account), decided tool by tool:
//   destructive: ends something another party relies on, which no call restores (a rotated secret, a voided award,
//                a withdrawn invitation's link)
//   not idempotent: a repeat does it again (another org or campaign, another secret, another sandbox purchase);
//                every other write answers the same on a repeat or refuses it (409) because it is already done
//   open world: reaches outside the service (store catalogue and APIs, the provider's API, a creator's mailbox)
const WRITE_EFFECTS: Record<string, { destructive: boolean; idempotent: boolean }> = {
  svc_create_org: { destructive: false, idempotent: false },
  svc_provision: { destructive: false, idempotent: true },
  svc_regenerate_webhook_secret: { destructive: true, idempotent: false },
  svc_setup_subprovider: { destructive: true, idempotent: false },
  svc_get_credential_upload_link: { destructive: false, idempotent: true },
  svc_set_apple_meta: { destructive: false, idempotent: true },
  svc_validate_store_credentials: { destructive: false, idempotent: true },
  svc_activate_store_direct: { destructive: false, idempotent: true },
  svc_test_integration: { destructive: false, idempotent: false },
  svc_update_app: { destructive: false, idempotent: true },
  svc_update_campaign: { destructive: false, idempotent: true },
  svc_create_campaign: { destructive: false, idempotent: false },
  svc_set_campaign_status: { destructive: false, idempotent: true },
  svc_review_bonus_award: { destructive: true, idempotent: true },
  // A void is final (the reservation released, or the commission taken back); a repeat answers the first decision.
  svc_review_commission: { destructive: true, idempotent: true },
  svc_invite_creator: { destructive: false, idempotent: true },
  svc_invite_creators_batch: { destructive: false, idempotent: true },
  svc_withdraw_invitation: { destructive: true, idempotent: true },
  svc_create_free_code: { destructive: false, idempotent: true },
  // A repeat of an add is refused (409, the value is taken); a retired code never attributes again.
  svc_add_offer_code: { destructive: false, idempotent: true },
  svc_retire_offer_code: { destructive: true, idempotent: true },
  svc_set_asset_featured: { destructive: false, idempotent: true },
  svc_get_asset_upload_link: { destructive: false, idempotent: true },
  svc_get_wallet_topup_link: { destructive: false, idempotent: true },
  svc_localize_campaign: { destructive: false, idempotent: true },
  svc_localize_app: { destructive: false, idempotent: true },
};
const OPEN_WORLD = [
  'svc_search_store',
  'svc_scrape_store',
  'svc_validate_store_credentials',
  'svc_setup_subprovider',
  'svc_invite_creator',
  'svc_invite_creators_batch',
];

async function listTools(path = '/mcp'): Promise<Map<string, Tool>> {
  const mcp = await connectMcp(h().baseUrl, seed.agent_key, path);
  try {
    return new Map((await mcp.client.listTools()).tools.map((t) => [t.name, t]));
  } finally {
    await mcp.close();
  }
}

test('every endpoint row serves its tools with the row scopes, honest annotations and merged input schema', async (t) => {
  const tools = await listTools();
  const expected = AGENT_ENDPOINTS.filter((e) => e.handler).flatMap((e) => endpointTools(e).map((tool) => ({ e, tool })));
  for (const { e, tool } of expected) {
    const listed = tools.get(tool.name);
    if (!listed) {
      t.fail(`${tool.name} (${e.method} ${e.path}) is not listed`);
      continue;
    }
    t.deepEqual(listed._meta?.['svc/scopes'], [...e.scopes], tool.name);
    t.is(listed._meta?.['svc/endpoint'], `${e.method.toUpperCase()} /api/agent${e.path}`);
    const effect = e.method === 'get' ? { destructive: false, idempotent: true } : WRITE_EFFECTS[tool.name];
    if (!effect) {
      t.fail(`${tool.name}: a write tool without a decided effect`);
      continue;
    }
    t.like(
      listed.annotations,
      {
        readOnlyHint: e.method === 'get',
        destructiveHint: effect.destructive,
        idempotentHint: effect.idempotent,
        openWorldHint: OPEN_WORLD.includes(tool.name),
      },
      tool.name,
    );
    t.truthy(TOOL_DOCS[tool.name], `${tool.name} has a description entry`);
    t.regex(listed.description ?? '', /Use it .+ Next: /, tool.name);
    t.is(listed.outputSchema?.type, 'object');
    const schema = listed.inputSchema as { type: string; properties: Record<string, unknown>; required?: string[] };
    t.is(schema.type, 'object');
    for (const [, param] of e.path.matchAll(/\{(\w+)\}/g)) t.true(schema.required?.includes(param!), `${tool.name} requires ${param}`);
    const query = (e.query ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
    for (const name of Object.keys(query.properties ?? {}))
      t.deepEqual(schema.properties[name], query.properties![name], `${tool.name}.${name}`);
    for (const name of query.required ?? []) t.true(schema.required?.includes(name));
    const body = (e.body ?? {}) as { properties?: Record<string, unknown> };
    for (const name of tool.bodyFields ?? Object.keys(body.properties ?? {}))
      t.deepEqual(schema.properties[name], body.properties![name], `${tool.name}.${name}`);
  }
  const registry = REGISTRY_TOOLS.map((x) => x.name);
  t.deepEqual(
    [...tools.keys()].filter((name) => !registry.includes(name)).sort(),
    expected.map((x) => x.tool.name).sort(),
    'no account tool without a row, no row without its tools',
  );
  t.deepEqual(
    Object.keys(WRITE_EFFECTS).sort(),
    expected
      .filter((x) => x.e.method !== 'get')
      .map((x) => x.tool.name)
      .sort(),
    'every write tool, and only those, has a decided effect',
  );
  t.is(
    expected.length,
    53,
    'account tools: 52 endpoint rows (45 of the spec + setup-subprovider + commissions + 3 offer-code rows + 2 review rows), ' +
      'the invite row serving two',
  );
  t.log(`account tools: ${expected.length}, registry tools: ${registry.length}, total: ${tools.size}`);
});

test(
  'annotations are true to effect: regenerating a secret is ' +
    'destructive and not idempotent; repeats of idempotent writes change nothing more',
  async (t) => {
    const app = await seedApp(h().db);
    const { key } = await createAgentKey(h().db, { orgId: app.org_id, name: 'effects', scopes: [...SCOPES] });
    const mcp = await connectMcp(h().baseUrl, key);
    try {
      const testEvent = () => providerEvent('test', { id: `test-${Date.now()}-${Math.random()}`, event_timestamp_ms: Date.now() });
      const first = ok(await mcp.call('svc_regenerate_webhook_secret', { app_id: app.app_id }));
      const second = ok(await mcp.call('svc_regenerate_webhook_secret', { app_id: app.app_id }));
      t.not(first.webhook_secret, second.webhook_secret, 'a repeat does it again (not idempotent)');
      t.is(
        (await sendWebhook(h().baseUrl, app.app_id, first.webhook_secret, testEvent())).status,
        401,
        'the replaced secret is gone for good (destructive)',
      );
      t.is((await sendWebhook(h().baseUrl, app.app_id, second.webhook_secret, testEvent())).status, 200);

      const code = { app_id: app.app_id, code: 'REVIEWERS' };
      ok(await mcp.call('svc_create_free_code', code));
      const again = await mcp.call('svc_create_free_code', code);
      t.true(again.isError, 'the repeat is refused: the first call already made it');
      t.is((await h().db('free_access_codes').where({ app_id: app.app_id, code: 'REVIEWERS' })).length, 1);

      ok(await mcp.call('svc_set_campaign_status', { campaign_id: app.campaign_id, status: 'paused' }));
      t.like(ok(await mcp.call('svc_set_campaign_status', { campaign_id: app.campaign_id, status: 'paused' })), {
        status: 'paused',
        changed: false,
      });
    } finally {
      await mcp.close();
    }
  },
);

test("the live list is the spec's tool set: every named tool, account and registry, and nothing else", async (t) => {
  const tools = await listTools();
  for (const name of SPEC_TOOLS) t.true(tools.has(name), `${name} is served`);
  t.deepEqual(
    [...tools.keys()].filter((n) => !SPEC_TOOLS.includes(n)),
    [],
    'no tool the spec does not name',
  );
  for (const tool of REGISTRY_TOOLS) {
    t.like(
      tools.get(tool.name),
      { annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } },
      tool.name,
    );
    t.deepEqual(tools.get(tool.name)!.inputSchema, tool.inputSchema, tool.name);
  }
});

test('the invite row serves a single and a batch tool; withdraw has its own', async (t) => {
  const tools = await listTools();
  const single = tools.get('svc_invite_creator')!.inputSchema as { properties: object; required: string[] };
  const batch = tools.get('svc_invite_creators_batch')!.inputSchema as { properties: object; required: string[] };
  t.deepEqual(single.required, ['campaign_id', 'email']);
  t.deepEqual(Object.keys(single.properties).sort(), ['campaign_id', 'email', 'lang', 'message', 'name']);
  t.deepEqual(batch.required, ['campaign_id', 'creators']);
  t.deepEqual(Object.keys(batch.properties).sort(), ['campaign_id', 'creators']);
  t.deepEqual(tools.get('svc_withdraw_invitation')!._meta?.['svc/endpoint'], 'POST /api/agent/invitations/{invitation_id}/withdraw');
});

test('svc://tools is the live list; svc://contract is version 1.6.0 with paths, the agent REST spec link and the scopes', async (t) => {
  const mcp = await connectMcp(h().baseUrl, seed.agent_key);
  try {
    const { resources } = await mcp.client.listResources();
    t.deepEqual(
      resources.map((r) => r.uri),
      ['svc://tools', 'svc://contract', 'ui://svc/integration-checklist.html', 'ui://svc/wallet.html'],
    );
    t.deepEqual(
      (await mcp.client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate),
      ['svc://sdk/{platform}'],
    );
    const rn = await readJsonResource(mcp.client, 'svc://sdk/react-native');
    t.like(rn, { version: '1.6.1' });
    await t.throwsAsync(mcp.client.readResource({ uri: 'svc://sdk/amiga' }), { message: /Resource not found/ });
    const listed = (await mcp.client.listTools()).tools;
    const toolsDoc = await readJsonResource(mcp.client, 'svc://tools');
    t.deepEqual(toolsDoc.tools, listed);

    const contract = await readJsonResource(mcp.client, 'svc://contract');
    t.is(contract.version, '1.6.0');
    t.is(contract.version, (openApiDocument(h().baseUrl).info as { version: string }).version);
    t.is(contract.agent_api.openapi, `${h().baseUrl}/api/agent/openapi.json`);
    t.deepEqual(contract.scopes, [...SCOPES]);
    t.deepEqual(
      contract.client_api.endpoints.find((r: { path: string }) => r.path === '/api/sdk/init'),
      { method: 'POST', path: '/api/sdk/init' },
    );
    t.true(contract.webhooks.endpoints.some((r: { path: string }) => r.path === '/api/webhooks/subprovider/{appId}'));
    t.true(contract.hard_denied.includes('money:write'));

    const missing = await t.throwsAsync(mcp.client.readResource({ uri: 'svc://nope' }));
    t.regex(missing.message, /Resource not found/);
  } finally {
    await mcp.close();
  }
});

test(
  'the registry seam: extra tools are listed and run, a fields error is a ' +
    'tool error listing them, svc://sdk/{platform} reads through the given function',
  async (t) => {
    const tools = await listTools('/mcp-seam');
    t.is(tools.size, 54, '53 account tools and the one extra');
    t.like(tools.get('svc_test_sdk_guide'), {
      title: 'SDK guide (test)',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });

    const mcp = await connectMcp(h().baseUrl, seed.agent_key, '/mcp-seam');
    try {
      t.deepEqual(ok(await mcp.call('svc_test_sdk_guide', { platform: 'ios' })), {
        platform: 'ios',
        init_url: `${h().baseUrl}/api/sdk/init`,
      });
      const bad = await mcp.call('svc_test_sdk_guide', { platform: 'x' });
      t.true(bad.isError);
      t.regex(textOf(bad), /platform: unknown platform 'x' \(enum\)/);
      t.deepEqual((bad.structuredContent as any).error.detail, [{ loc: ['platform'], msg: "unknown platform 'x'", type: 'enum' }]);

      t.deepEqual(
        (await mcp.client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate),
        ['svc://sdk/{platform}'],
      );
      const guide = await readJsonResource(mcp.client, 'svc://sdk/ios');
      t.deepEqual(guide, { platform: 'ios', base_url: h().baseUrl });
      await t.throwsAsync(mcp.client.readResource({ uri: 'svc://sdk/amiga' }), { message: /Resource not found/ });
    } finally {
      await mcp.close();
    }
  },
);
