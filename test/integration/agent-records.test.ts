// Spec rows of the agent records and the API's edges, over HTTP and the tool server: the app's localized maps
// (PATCH replaces a map and records its locales fresh; a source-text PATCH makes them stale) and creator-code
// settings (the mirror needs a stored provider key: 409 naming the credential link); one free-access code with its
// redemptions (newest first, paged by cursor); a wrong method on /api/* (405, `{"detail"}`, `Allow`); GET /api/agent
// (the tool server's resource index, and each resource's JSON).
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { saveCredential } from '../../db/store-credentials-writes.js';
import { SCOPES } from '../../lib/scopes.js';
import { SecretBox } from '../../lib/secret-box.js';
import { request } from '../helpers/http.js';
import { connectMcp, ok, readJsonResource, textOf, type McpSession } from '../helpers/mcp.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h } = useSeededHarness(test, { worker: false });

type Account = SeededApp & { key: string };

async function account(): Promise<Account> {
  await h.ready();
  const app = await seedApp(h().db);
  const { key } = await createAgentKey(h().db, { orgId: app.org_id, name: 'records test', scopes: [...SCOPES] });
  return { ...app, key };
}

const agent = (a: Account, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token: a.key, body });

async function withMcp<T>(a: Account, fn: (mcp: McpSession) => Promise<T>): Promise<T> {
  const mcp = await connectMcp(h().baseUrl, a.key);
  try {
    return await fn(mcp);
  } finally {
    await mcp.close();
  }
}

test('app record: the localized maps and creator_code_settings are read on every app answer, with their defaults', async (t) => {
  const a = await account();
  const one = await agent(a, 'GET', `/apps/${a.app_id}`);
  t.is(one.status, 200, one.text);
  t.like(one.body, {
    name_i18n: {},
    description_i18n: {},
    tagline_i18n: {},
    creator_code_settings: { mirror_free_access_to_subprovider: false },
  });
  t.is(one.body.i18n_meta, undefined, 'freshness is told by i18n, not the raw bookkeeping');
  const list = await agent(a, 'GET', '/apps');
  t.deepEqual(list.body.apps[0].creator_code_settings, { mirror_free_access_to_subprovider: false });
  t.deepEqual(list.body.apps[0].name_i18n, {});
});

test('PATCH a map: replaces it and records its locales fresh against the current text; a source PATCH makes them stale', async (t) => {
  const a = await account();
  const patch = (body: unknown) => agent(a, 'PATCH', `/apps/${a.app_id}`, body);
  const first = await patch({ name_i18n: { de: 'Hallo App', 'pt-BR': 'Olá App' }, tagline_i18n: { de: 'Schnell' } });
  t.is(first.status, 200, first.text);
  t.deepEqual(first.body.name_i18n, { de: 'Hallo App', 'pt-BR': 'Olá App' });
  t.deepEqual(first.body.tagline_i18n, { de: 'Schnell' });
  t.deepEqual(first.body.i18n.fresh_locales, ['de', 'pt-BR']);
  t.like(first.body.i18n.locales.de, { name: 'Hallo App', tagline: 'Schnell', status: 'fresh' });
  const row = await h().db('apps').where('id', a.app_id).first('i18n_meta');
  t.is(row.i18n_meta.de.source_hash, first.body.i18n.source_hash);

  // A source text changes: every translation of it is stale (as /localize reports), the maps stay as they were.
  const renamed = await patch({ tagline: 'Fast and simple' });
  t.is(renamed.status, 200, renamed.text);
  t.deepEqual(renamed.body.i18n.stale_locales, ['de', 'pt-BR']);
  t.deepEqual(renamed.body.name_i18n, first.body.name_i18n);
  t.deepEqual((await agent(a, 'POST', `/apps/${a.app_id}/localize`, { locales: {} })).body.stale_locales, ['de', 'pt-BR']);

  // Source and map in one PATCH: the map's locales are recorded against the new text; a locale left in no map goes.
  const both = await patch({ name: 'Renamed', name_i18n: { de: 'Umbenannt' } });
  t.is(both.status, 200, both.text);
  t.is(both.body.name, 'Renamed');
  t.deepEqual(both.body.name_i18n, { de: 'Umbenannt' });
  t.deepEqual(both.body.i18n.fresh_locales, ['de']);
  t.deepEqual(both.body.i18n.stale_locales, []);
  t.deepEqual(Object.keys(both.body.i18n.locales), ['de']);
  const cleared = await patch({ name_i18n: {}, tagline_i18n: {} });
  t.deepEqual(cleared.body.i18n.locales, {});
  t.deepEqual((await h().db('apps').where('id', a.app_id).first('i18n_meta')).i18n_meta, {});
});

test(
  'PATCH validates map keys as language codes and values as ' + 'text; creator_code_settings takes its one field (422 naming it)',
  async (t) => {
    const a = await account();
    const cases: [unknown, string][] = [
      [{ name_i18n: { DE: 'x' } }, 'name_i18n'],
      [{ name_i18n: { english: 'x' } }, 'name_i18n'],
      [{ description_i18n: { de_DE: 'x' } }, 'description_i18n'],
      [{ tagline_i18n: { de: '' } }, 'tagline_i18n'],
      [{ name_i18n: { de: 5 } }, 'name_i18n'],
      [{ name_i18n: 'Hallo' }, 'name_i18n'],
      [{ creator_code_settings: { mirror_free_access_to_subprovider: 'yes' } }, 'creator_code_settings'],
      [{ creator_code_settings: { auto_approve: true } }, 'creator_code_settings'],
      [{ creator_code_settings: {} }, 'creator_code_settings'],
    ];
    for (const [body, field] of cases) {
      const res = await agent(a, 'PATCH', `/apps/${a.app_id}`, body);
      t.is(res.status, 422, JSON.stringify(body));
      t.true(
        res.body.detail.some((d: { loc: string[] }) => d.loc[1] === field),
        `${JSON.stringify(body)}: ${res.text}`,
      );
    }
    const row = await h().db('apps').where('id', a.app_id).first('name_i18n', 'creator_code_settings');
    t.deepEqual(row, { name_i18n: {}, creator_code_settings: {} }, 'nothing written');
  },
);

test(
  'mirror_free_access_to_subprovider: 409 naming the credential link ' +
    'without a stored provider key (nothing written); on once the key is stored',
  async (t) => {
    const a = await account();
    const on = { creator_code_settings: { mirror_free_access_to_subprovider: true } };
    const refused = await agent(a, 'PATCH', `/apps/${a.app_id}`, { ...on, tagline: 'not written either' });
    t.is(refused.status, 409, refused.text);
    t.regex(refused.body.detail, new RegExp(`POST /api/agent/apps/${a.app_id}/credential-setup-link`));
    t.regex(refused.body.detail, /svc_get_credential_upload_link/);
    t.regex(refused.body.detail, /"platform": "subprovider"/);
    const untouched = await h().db('apps').where('id', a.app_id).first('creator_code_settings', 'tagline');
    t.deepEqual(untouched, { creator_code_settings: {}, tagline: null });

    // Through the tool server the same refusal is a tool error naming the link.
    const toolRefusal = await withMcp(a, (mcp) => mcp.call('svc_update_app', { app_id: a.app_id, ...on }));
    t.true(toolRefusal.isError);
    t.regex(textOf(toolRefusal), /credential-setup-link/);

    await saveCredential(
      h().db,
      new SecretBox(h().config.SVC_MASTER_KEY!),
      a.app_id,
      'subprovider',
      `sk_${randomBytes(12).toString('hex')}`,
    );
    const accepted = await withMcp(a, async (mcp) => ok(await mcp.call('svc_update_app', { app_id: a.app_id, ...on })));
    t.deepEqual(accepted.creator_code_settings, { mirror_free_access_to_subprovider: true });
    const read = await withMcp(a, async (mcp) => ok(await mcp.call('svc_get_app', { app_id: a.app_id })));
    t.deepEqual(read.creator_code_settings, { mirror_free_access_to_subprovider: true });
    // Turning it off never needs the key.
    await h().db('store_credentials').where({ app_id: a.app_id, platform: 'subprovider' }).delete();
    const off = await agent(a, 'PATCH', `/apps/${a.app_id}`, { creator_code_settings: { mirror_free_access_to_subprovider: false } });
    t.is(off.status, 200, off.text);
    t.deepEqual(off.body.creator_code_settings, { mirror_free_access_to_subprovider: false });
  },
);

test('svc_update_app takes the maps; svc_get_app reads them', async (t) => {
  const a = await account();
  await withMcp(a, async (mcp) => {
    const patched = ok(await mcp.call('svc_update_app', { app_id: a.app_id, description_i18n: { fr: 'Une appli' } }));
    t.deepEqual(patched.description_i18n, { fr: 'Une appli' });
    t.deepEqual(patched.i18n.fresh_locales, ['fr']);
    const read = ok(await mcp.call('svc_get_app', { app_id: a.app_id }));
    t.deepEqual(read.description_i18n, { fr: 'Une appli' });
  });
});

const redeem = (a: SeededApp, code: string, appUserId: string) =>
  request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', { token: a.sdk_key, body: { code, app_user_id: appUserId } });

test('GET /free-codes?code=X: that code with redemptions[] newest first, limit and cursor; unknown code 404; bad cursor 422', async (t) => {
  const a = await account();
  const created = await agent(a, 'POST', `/apps/${a.app_id}/free-codes`, { code: 'press-pass', access_duration_days: 30 });
  t.is(created.status, 201, created.text);
  const users = ['u-1', 'u-2', 'u-3', 'u-4', 'u-5'];
  for (const u of users) t.is((await redeem(a, 'PRESS-PASS', u)).status, 200);
  t.is((await redeem(a, 'PRESS-PASS', 'u-2')).status, 200, 're-redeeming renews the one grant');

  const all = await agent(a, 'GET', `/apps/${a.app_id}/free-codes?code=press-pass`);
  t.is(all.status, 200, all.text);
  t.like(all.body, { id: created.body.id, code: 'PRESS-PASS', seats_used: 5, next_cursor: null });
  t.deepEqual(
    all.body.redemptions.map((r: { app_user_id: string }) => r.app_user_id),
    [...users].reverse(),
  );
  for (const r of all.body.redemptions) {
    t.deepEqual(Object.keys(r).sort(), ['app_user_id', 'expires_at', 'granted_at']);
    t.is(Math.round((Date.parse(r.expires_at) - Date.parse(r.granted_at)) / 86_400_000), 30);
  }

  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const path: string = `/apps/${a.app_id}/free-codes?code=PRESS-PASS&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await agent(a, 'GET', path);
    t.is(page.status, 200, page.text);
    pages.push(page.body.redemptions.map((r: { app_user_id: string }) => r.app_user_id));
    cursor = page.body.next_cursor;
  } while (cursor);
  t.deepEqual(pages, [['u-5', 'u-4'], ['u-3', 'u-2'], ['u-1']]);

  const viaTool = await withMcp(a, async (mcp) =>
    ok(await mcp.call('svc_list_free_codes', { app_id: a.app_id, code: 'PRESS-PASS', limit: 1 })),
  );
  t.deepEqual(
    viaTool.redemptions.map((r: { app_user_id: string }) => r.app_user_id),
    ['u-5'],
  );
  t.is(typeof viaTool.next_cursor, 'string');

  const unknown = await agent(a, 'GET', `/apps/${a.app_id}/free-codes?code=NOPE-CODE`);
  t.is(unknown.status, 404);
  t.regex(unknown.body.detail, /NOPE-CODE/);
  for (const q of [
    'code=PRESS-PASS&limit=0',
    'code=PRESS-PASS&limit=101',
    'code=PRESS-PASS&cursor=garbage',
    `code=PRESS-PASS&cursor=${Buffer.from('[1,2]').toString('base64url')}`,
    'cursor=abc',
  ]) {
    const res = await agent(a, 'GET', `/apps/${a.app_id}/free-codes?${q}`);
    t.is(res.status, 422, `${q}: ${res.text}`);
  }
  const list = await agent(a, 'GET', `/apps/${a.app_id}/free-codes`);
  t.is(list.body.count, 1, 'without code: the list as before');
  t.is(list.body.free_codes[0].redemptions, undefined);
});

test('a wrong method on /api/* is 405 with {"detail"} and an Allow header, whatever the surface', async (t) => {
  const a = await account();
  const cases: [string, string, string | undefined][] = [
    ['PUT', `/api/agent/apps/${a.app_id}`, a.key],
    ['PUT', '/api/agent/campaigns', a.key],
    ['GET', '/api/agent/provision', a.key],
    ['GET', '/api/sdk/init', a.sdk_key],
    ['DELETE', '/api/agent/openapi.json', undefined],
  ];
  for (const [method, path, token] of cases) {
    const res = await request(h().baseUrl, method, path, { token });
    t.is(res.status, 405, `${method} ${path}: ${res.text}`);
    const allow = res.headers.get('allow');
    t.truthy(allow, `${method} ${path}: Allow`);
    t.false(allow!.split(', ').includes(method));
    t.is(typeof res.body.detail, 'string');
    t.true(res.body.detail.includes(allow!), res.body.detail);
  }
  const allowed = await request(h().baseUrl, 'PATCH', `/api/agent/apps/${a.app_id}`, { token: a.key, body: {} });
  t.is(allowed.status, 422, 'a listed method still reaches its route');
});

test(
  'GET /api/agent: the resource index (svc://tools, ' + 'svc://contract, svc://sdk/{platform}); ?uri= reads one as the tool server does',
  async (t) => {
    const a = await account();
    const index = await agent(a, 'GET', '');
    t.is(index.status, 200, index.text);
    t.deepEqual(
      index.body.resources.map((r: { uri: string }) => r.uri),
      ['svc://tools', 'svc://contract', 'ui://svc/integration-checklist.html', 'ui://svc/wallet.html'],
    );
    const page = await request(h().baseUrl, 'GET', `/api/agent?uri=${encodeURIComponent('ui://svc/wallet.html')}`, { token: a.key });
    t.is(page.status, 200, 'an MCP App page is served as the HTML it is');
    t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
    t.deepEqual(
      index.body.resource_templates.map((r: { uriTemplate: string }) => r.uriTemplate),
      ['svc://sdk/{platform}'],
    );
    t.true(index.body.resource_templates[0].uris.includes('svc://sdk/react-native'));
    t.is(index.body.tool_server, `${h().baseUrl}/mcp`);
    t.is(index.body.openapi, `${h().baseUrl}/api/agent/openapi.json`);
    t.is((await agent(a, 'GET', '/')).status, 200);

    await withMcp(a, async (mcp) => {
      const listed = (await mcp.client.listResources()).resources;
      t.deepEqual(index.body.resources, JSON.parse(JSON.stringify(listed)), 'the same list resources/list answers');
      for (const uri of ['svc://tools', 'svc://contract', 'svc://sdk/ios']) {
        const rest = await agent(a, 'GET', `?uri=${encodeURIComponent(uri)}`);
        t.is(rest.status, 200, `${uri}: ${rest.text}`);
        t.deepEqual(rest.body, await readJsonResource(mcp.client, uri), uri);
      }
    });
    t.is((await agent(a, 'GET', `?uri=${encodeURIComponent('svc://sdk/amiga')}`)).status, 404);
    t.is((await request(h().baseUrl, 'GET', '/api/agent')).status, 401, 'agent credentials only, as on the tool server');
    t.is((await request(h().baseUrl, 'GET', '/api/agent', { token: a.sdk_key })).status, 401);
  },
);

test('the OpenAPI document, svc://contract and the tool descriptions carry every new field', async (t) => {
  const a = await account();
  const doc = (await request(h().baseUrl, 'GET', '/api/agent/openapi.json')).body;
  const answer = (path: string, method: string) => doc.paths[path][method].responses[200].content['application/json'].schema;
  const appFields = ['name_i18n', 'description_i18n', 'tagline_i18n', 'creator_code_settings'];
  const patchBody = doc.paths['/apps/{app_id}'].patch.requestBody.content['application/json'].schema;
  for (const f of appFields) {
    t.truthy(patchBody.properties[f], `PATCH body ${f}`);
    t.truthy(answer('/apps/{app_id}', 'get').properties[f], `app answer ${f}`);
  }
  t.truthy(patchBody.properties.creator_code_settings.properties.mirror_free_access_to_subprovider);
  t.truthy(patchBody.properties.name_i18n.propertyNames.pattern);
  const statsFields = ['clicks', 'installs', 'attributed_installs', 'conversions', 'revenue_usd', 'commission_usd'];
  for (const [path, method] of [
    ['/campaigns/{campaign_id}', 'get'],
    ['/campaigns/{campaign_id}', 'patch'],
    ['/apps/{app_id}/campaigns', 'post'],
  ] as const) {
    t.deepEqual(answer(path, method).properties.stats.required, statsFields, `${method} ${path}`);
  }
  t.deepEqual(answer('/campaigns', 'get').properties.campaigns.items.properties.stats.required, statsFields);
  const freeCodes = doc.paths['/apps/{app_id}/free-codes'].get;
  t.deepEqual(
    freeCodes.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name),
    ['code', 'limit', 'cursor'],
  );
  t.truthy(answer('/apps/{app_id}/free-codes', 'get').oneOf[1].properties.redemptions.items.properties.expires_at);
  t.truthy(doc.paths['/'].get.responses[200], 'GET /api/agent, the resource index');
  t.truthy(doc.paths['/apps/{app_id}'].get.responses[405].headers.Allow);

  await withMcp(a, async (mcp) => {
    const contract = await readJsonResource(mcp.client, 'svc://contract');
    for (const f of appFields) t.truthy(contract.agent_api.records.app.properties[f], `contract app ${f}`);
    t.deepEqual(contract.agent_api.records.campaign.properties.stats.required, statsFields);
    t.truthy(contract.agent_api.records.free_code_with_redemptions.properties.redemptions);
    t.deepEqual(contract.client_api.purchase_event.properties.environment.enum, ['SANDBOX', 'PRODUCTION']);
    t.is(contract.agent_api.resource_index, `${h().baseUrl}/api/agent`);
    t.regex(contract.agent_api.errors, /405 with an Allow header/);

    const tools = new Map((await mcp.client.listTools()).tools.map((tool) => [tool.name, tool]));
    for (const f of appFields) {
      t.true(tools.get('svc_get_app')!.description!.includes(f), `svc_get_app describes ${f}`);
      t.truthy((tools.get('svc_update_app')!.inputSchema.properties as Record<string, unknown>)[f], `svc_update_app takes ${f}`);
    }
    t.regex(tools.get('svc_update_app')!.description!, /stale/);
    for (const f of statsFields) t.true(tools.get('svc_get_campaign')!.description!.includes(f), `svc_get_campaign describes stats.${f}`);
    t.regex(tools.get('svc_list_campaigns')!.description!, /stats/);
    const listFree = tools.get('svc_list_free_codes')!;
    t.deepEqual(Object.keys(listFree.inputSchema.properties as object).sort(), ['app_id', 'code', 'cursor', 'limit']);
    for (const f of ['redemptions', 'app_user_id', 'granted_at', 'expires_at', 'next_cursor'])
      t.true(listFree.description!.includes(f), `svc_list_free_codes describes ${f}`);
  });
});
