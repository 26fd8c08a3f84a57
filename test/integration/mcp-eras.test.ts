// Both protocol eras on /mcp, as raw HTTP: a 2026-07-28 client sends no `initialize` (version, client info and
// capabilities ride each request's `_meta`, with MCP-Protocol-Version / Mcp-Method / Mcp-Name headers), a
// 2025-11-25 client sends what it always sent. Each check runs in both eras and expects the same answer: the tool
// list, a tool call, a missing scope, invalid arguments, another organization's id, the 401 challenge. Then what
// only the new revision has: server/discover, caching hints, and the header checks (-32020).
import test from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { request } from '../helpers/http.js';
import { initializeMessage, messagesOf, MODERN_VERSION, modernMessage, postMcp, postModern, toolCallMessage } from '../helpers/mcp.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const clock = new RateLimitClock();
const { h, seed } = useSeededHarness(test, { worker: false, rateLimitClock: clock.now });

type Era = '2025-11-25' | typeof MODERN_VERSION;
const ERAS: Era[] = ['2025-11-25', MODERN_VERSION];
/** The same thing done in the 2025 era and in the 2026 era: [legacy, modern]. */
const bothEras = <T>(f: (era: Era) => Promise<T>): Promise<[T, T]> => Promise.all([f('2025-11-25'), f(MODERN_VERSION)]);

/** One request in `era`, raw: the 2025 form (no initialize needed by this stateless server) or the 2026 envelope. */
async function rpc(era: Era, method: string, params: Record<string, unknown>, token: string | undefined = seed.agent_key) {
  const res =
    era === MODERN_VERSION
      ? await postModern(h().baseUrl, modernMessage(7, method, params), { token })
      : await postMcp(h().baseUrl, { jsonrpc: '2.0', id: 7, method, params }, { token, headers: { 'mcp-protocol-version': era } });
  return { res, message: res.status === 200 ? messagesOf(res).at(-1) : undefined };
}

const call = async (era: Era, name: string, args: Record<string, unknown>, token?: string) =>
  (await rpc(era, 'tools/call', { name, arguments: args }, token)).message.result;

test('tools/list without initialize in 2026-07-28 is the 2025 list, with a shared five-minute caching hint', async (t) => {
  const legacy = await rpc('2025-11-25', 'tools/list', {});
  const modern = await rpc(MODERN_VERSION, 'tools/list', {});
  t.is(modern.res.status, 200, modern.res.text);
  t.is(modern.res.headers.get('mcp-session-id'), null, 'no session');
  t.true(modern.message.result.tools.length > 40);
  t.deepEqual(modern.message.result.tools, legacy.message.result.tools);
  t.like(modern.message.result, { ttlMs: 300_000, cacheScope: 'public' });
  t.is(legacy.message.result.ttlMs, undefined, 'the 2025 era carries no caching hint');
  // 'public' holds only while every principal gets the same list: a key with one scope sees the same tools.
  const narrow = await createAgentKey(h().db, { orgId: seed.org_id, name: 'apps only', scopes: ['apps:read'] });
  t.deepEqual((await rpc(MODERN_VERSION, 'tools/list', {}, narrow.key)).message.result.tools, modern.message.result.tools);
});

test('server/discover: versions, server info, capabilities and instructions, without a session', async (t) => {
  const { res, message } = await rpc(MODERN_VERSION, 'server/discover', {});
  t.is(res.status, 200, res.text);
  const result = message.result;
  t.true(result.supportedVersions.includes(MODERN_VERSION));
  t.deepEqual(result.capabilities, { tools: { listChanged: false }, resources: {}, extensions: { 'io.modelcontextprotocol/ui': {} } });
  t.is(result.cacheScope, 'public');
  t.like(result._meta?.['io.modelcontextprotocol/serverInfo'], { name: 'svc', title: 'svc attribution' }, JSON.stringify(result._meta));
  t.regex(result.instructions, /svc_doctor/);
});

test('a tool call answers the same in both eras, through the same REST chain', async (t) => {
  const [legacy, modern] = await bothEras((era) => call(era, 'svc_get_app', { app_id: seed.app_id }));
  t.falsy(modern.isError);
  t.deepEqual(modern.structuredContent, legacy.structuredContent);
  t.deepEqual(modern.content, legacy.content);
  t.is(modern.structuredContent.app_id, seed.app_id);
  t.is(modern.resultType, 'complete');
});

test('scope, validation and not-found refusals are the same tool errors in both eras', async (t) => {
  const narrow = await createAgentKey(h().db, { orgId: seed.org_id, name: 'apps only', scopes: ['apps:read'] });
  const other = await seedApp(h().db);
  const cases: [string, Record<string, unknown>, string | undefined, object][] = [
    ['svc_list_campaigns', {}, narrow.key, { status: 403, code: 'missing_scope', scope: 'campaigns:read' }],
    ['svc_get_app', { app_id: other.app_id }, undefined, { status: 404, code: 'not_found' }],
    ['svc_update_app', { app_id: seed.app_id, name: 42, color: 'red' }, undefined, { status: 422, code: 'validation_error' }],
  ];
  for (const [tool, args, token, error] of cases) {
    const [legacy, modern] = await bothEras((era) => call(era, tool, args, token));
    t.true(modern.isError, tool);
    t.like(modern.structuredContent, { error }, tool);
    t.deepEqual(modern.structuredContent, legacy.structuredContent, tool);
    t.deepEqual(modern.content, legacy.content, tool);
  }
});

test('no credential: the same 401 and WWW-Authenticate challenge in both eras, before the MCP layer', async (t) => {
  const legacy = await postMcp(h().baseUrl, initializeMessage(), {});
  const modern = await postModern(h().baseUrl, modernMessage(1, 'tools/list'), {});
  for (const res of [legacy, modern]) {
    t.is(res.status, 401);
    t.regex(
      res.headers.get('www-authenticate') ?? '',
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", scope="/,
    );
  }
  t.is(modern.headers.get('www-authenticate'), legacy.headers.get('www-authenticate'));
  t.deepEqual(modern.body, legacy.body);
});

test('the tool-call limit counts 2026-07-28 calls in the same per-principal window', async (t) => {
  const key = await createAgentKey(h().db, { orgId: seed.org_id, name: 'limited', scopes: ['apps:read'] });
  const limit = h().config.MCP_TOOL_CALLS_PER_MINUTE;
  // 240 calls can take longer than the minute on a busy machine: they all count at one moment.
  const refused = await clock.held(async () => {
    for (let i = 0; i < limit; i += 1) {
      const era = ERAS[i % 2]!;
      const res =
        era === MODERN_VERSION
          ? await postModern(h().baseUrl, modernMessage(i, 'tools/call', { name: 'svc_whoami', arguments: {} }), { token: key.key })
          : await postMcp(h().baseUrl, toolCallMessage(i, 'svc_whoami'), { token: key.key });
      if (res.status !== 200) throw new Error(`call ${i} (${era}): ${res.status}`);
    }
    return postModern(h().baseUrl, modernMessage(99, 'tools/call', { name: 'svc_whoami', arguments: {} }), { token: key.key });
  });
  t.is(refused.status, 429);
  t.is(refused.headers.get('retry-after'), '60');
});

test('header checks: Mcp-Method or Mcp-Name not matching the body, or missing, is 400 HeaderMismatch (-32020)', async (t) => {
  const msg = modernMessage(3, 'tools/call', { name: 'svc_whoami', arguments: {} });
  const bad: [string, Record<string, string>][] = [
    ['Mcp-Method differs', { 'mcp-method': 'tools/list' }],
    ['Mcp-Name differs', { 'mcp-name': 'svc_get_wallet' }],
    ['Mcp-Name missing', { 'mcp-name': '' }],
    ['MCP-Protocol-Version differs from _meta', { 'mcp-protocol-version': '2025-11-25' }],
  ];
  for (const [label, headers] of bad) {
    const res = await postModern(h().baseUrl, msg, { token: seed.agent_key, headers });
    t.is(res.status, 400, `${label}: ${res.text}`);
    t.is(res.body.error.code, -32020, label);
  }
  const ok = await postModern(h().baseUrl, msg, { token: seed.agent_key });
  t.is(ok.status, 200);
  t.is(messagesOf(ok)[0].result.structuredContent.auth_mode, 'agent_key');
  // A revision this server does not implement: 400 naming the supported ones.
  const future = modernMessage(4, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' });
  const res = await postModern(h().baseUrl, future, { token: seed.agent_key, headers: { 'mcp-protocol-version': '2099-01-01' } });
  t.is(res.status, 400, res.text);
  t.is(res.body.error.code, -32022);
  t.true(res.body.error.data.supported.includes(MODERN_VERSION));
});

test('resources: the same list and contents in both eras; a resource that does not exist is -32602 naming it in both', async (t) => {
  const [legacy, modern] = await bothEras((era) => rpc(era, 'resources/read', { uri: 'svc://contract' }));
  t.deepEqual(modern.message.result.contents, legacy.message.result.contents);
  const [lostLegacy, lostModern] = await bothEras((era) => rpc(era, 'resources/read', { uri: 'svc://nothing' }));
  for (const lost of [lostLegacy, lostModern]) t.like(lost.message.error, { code: -32602, data: { uri: 'svc://nothing' } });
  // GET stays 405 for every client: there is no session and no standalone stream in either era.
  t.is(
    (
      await request(h().baseUrl, 'GET', '/mcp', {
        token: seed.agent_key,
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': MODERN_VERSION },
      })
    ).status,
    405,
  );
});
