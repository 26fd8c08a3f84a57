// /mcp at the HTTP level, before and around the MCP layer: Origin (403), credentials (401 + WWW-Authenticate), the
// stateless answers to GET and DELETE (405), statelessness across API processes, and the tool-call rate limit (429
// with Retry-After), also shared through Redis.
import test from 'ava';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { closeServer, createApp, listen } from '../../api/app.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { loadConfig } from '../../runtime/config.js';
import { SCOPES } from '../../lib/scopes.js';
import { createLogger } from '../../runtime/logger.js';
import { createRedis, redisReady } from '../../runtime/redis.js';
import { request } from '../helpers/http.js';
import { initializeMessage, postMcp, toolCallMessage } from '../helpers/mcp.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { requireRedis, TEST_REDIS_URL } from '../helpers/redis.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const LIMIT = 3;
const clock = new RateLimitClock();
const { h, seed } = useSeededHarness(test, {
  worker: false,
  env: { MCP_TOOL_CALLS_PER_MINUTE: String(LIMIT) },
  rateLimitClock: clock.now,
});

const newKey = async () => (await createAgentKey(h().db, { orgId: seed.org_id, name: `mcp-${Math.random()}`, scopes: [...SCOPES] })).key;
const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

test('the default tool-call limit is 240 per minute (spec); this file runs with a smaller one', (t) => {
  t.is(loadConfig({}).MCP_TOOL_CALLS_PER_MINUTE, 240);
  t.is(h().config.MCP_TOOL_CALLS_PER_MINUTE, LIMIT);
});

test('no credential, an unknown key or an SDK key: 401 with WWW-Authenticate: Bearer resource_metadata', async (t) => {
  const cases: [string, string | undefined][] = [
    ['none', undefined],
    ['unknown agent key', 'it_mcp_not_a_real_key'],
    ['SDK key', seed.sdk_key],
    ['webhook secret', seed.webhook_secret],
  ];
  for (const [label, token] of cases) {
    const res = await postMcp(h().baseUrl, initializeMessage(), { token });
    t.is(res.status, 401, `${label}: ${res.text}`);
    t.regex(
      res.headers.get('www-authenticate') ?? '',
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", scope="/,
      label,
    );
    t.regex(res.body.detail, /agent key or OAuth token/, label);
  }
});

test('Origin: a foreign one is 403 even with a valid key; none, the BASE_URL origin and loopback origins pass', async (t) => {
  for (const origin of ['https://evil.example.com', 'null', 'http://svc.example.com.evil.test']) {
    const res = await postMcp(h().baseUrl, initializeMessage(), { token: seed.agent_key, headers: { origin } });
    t.is(res.status, 403, origin);
    t.regex(res.body.detail, /not allowed/);
  }
  const passing = [undefined, h().baseUrl, 'http://localhost:6274', 'http://127.0.0.1:3000', 'http://[::1]:8080'];
  for (const origin of passing) {
    const res = await postMcp(h().baseUrl, initializeMessage(), { token: seed.agent_key, headers: origin ? { origin } : {} });
    t.is(res.status, 200, `${origin}: ${res.text}`);
    t.is(res.body.result.serverInfo.name, 'svc');
    t.is(res.headers.get('access-control-allow-origin'), origin ?? null);
  }
  const preflight = await request(h().baseUrl, 'OPTIONS', '/mcp', {
    headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
  });
  t.is(preflight.status, 204);
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Mcp-Method, Mcp-Name/, 'the 2026-07-28 routing headers');
  t.is((await request(h().baseUrl, 'OPTIONS', '/mcp', { headers: { origin: 'https://evil.example.com' } })).status, 403);
});

test(
  'GET and DELETE /mcp answer 405 (stateless: no session, no ' + 'server-initiated stream); an empty POST is a JSON-RPC parse error',
  async (t) => {
    for (const method of ['GET', 'DELETE']) {
      const res = await request(h().baseUrl, method, '/mcp', { token: seed.agent_key, headers: { accept: 'text/event-stream' } });
      t.is(res.status, 405, method);
      t.is(res.headers.get('allow'), 'POST, OPTIONS');
      t.is(res.body.error.code, -32000);
    }
    // A browser opening the start banner's link: still 405, with a page saying what the address is for.
    const browser = await request(h().baseUrl, 'GET', '/mcp', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    t.is(browser.status, 405);
    t.regex(browser.headers.get('content-type') ?? '', /text\/html/);
    t.regex(browser.text, /MCP client/);
    t.regex(browser.text, /href="\/dashboard\/agents"/);
    const empty = await request(h().baseUrl, 'POST', '/mcp', {
      token: seed.agent_key,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    });
    t.is(empty.status, 400);
    t.is(empty.body.error.code, -32700);
  },
);

test('stateless: no session id is issued, and a second API process answers a client initialized on the first', async (t) => {
  const init = await postMcp(h().baseUrl, initializeMessage(), { token: seed.agent_key });
  t.is(init.status, 200);
  t.is(init.headers.get('mcp-session-id'), null);
  const other = await listen(
    createApp({ config: h().config, db: h().db, temporal: h().temporal, logger: createLogger('silent') }),
    0,
    '127.0.0.1',
  );
  try {
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const listed = await postMcp(url, toolsList(2), {
      token: seed.agent_key,
      headers: { 'mcp-protocol-version': init.body.result.protocolVersion },
    });
    t.is(listed.status, 200, listed.text);
    t.true(listed.body.result.tools.length > 40);
  } finally {
    await closeServer(other, 100);
  }
});

test('tool calls beyond the limit per principal are 429 with Retry-After before the MCP layer; listing does not count', async (t) => {
  // The calls count at one moment however long they take: the window is a minute, the check is the count.
  await clock.held(async () => {
    const key = await newKey();
    for (let i = 0; i < LIMIT + 2; i += 1) t.is((await postMcp(h().baseUrl, toolsList(i), { token: key })).status, 200);
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await postMcp(h().baseUrl, toolCallMessage(i, 'svc_whoami'), { token: key });
      t.is(res.status, 200, res.text);
      t.is(res.body.result.structuredContent.auth_mode, 'agent_key');
    }
    const refused = await postMcp(h().baseUrl, toolCallMessage(9, 'svc_whoami'), { token: key });
    t.is(refused.status, 429);
    t.is(refused.headers.get('retry-after'), '60');
    t.regex(refused.text, /Too Many Requests/);
    t.is((await postMcp(h().baseUrl, toolsList(10), { token: key })).status, 200, 'listing still works');
    // A batch counts each call in it.
    const other = await newKey();
    const batch = [
      toolCallMessage(1, 'svc_whoami'),
      toolCallMessage(2, 'svc_whoami'),
      toolCallMessage(3, 'svc_whoami'),
      toolCallMessage(4, 'svc_whoami'),
    ];
    t.is((await postMcp(h().baseUrl, batch, { token: other })).status, 429);
    t.is(
      (await postMcp(h().baseUrl, toolCallMessage(5, 'svc_whoami'), { token: await newKey() })).status,
      200,
      'another key has its own window',
    );
  });
});

test('with REDIS_URL two API processes share one tool-call window per principal', async (t) => {
  if (!(await requireRedis(t))) return;
  const logger = createLogger('silent');
  const redises = [createRedis(TEST_REDIS_URL, logger), createRedis(TEST_REDIS_URL, logger)];
  for (const r of redises) t.true(await redisReady(r));
  const servers: Server[] = [];
  try {
    const urls: string[] = [];
    for (const redis of redises) {
      const server = await listen(createApp({ config: h().config, db: h().db, temporal: h().temporal, logger, redis }), 0, '127.0.0.1');
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    const key = await newKey();
    const call = (url: string, id: number) => postMcp(url, toolCallMessage(id, 'svc_whoami'), { token: key });
    t.is((await call(urls[0]!, 1)).status, 200);
    t.is((await call(urls[1]!, 2)).status, 200);
    t.is((await call(urls[0]!, 3)).status, 200);
    t.is((await call(urls[1]!, 4)).status, 429, 'A and B together admitted the limit');
    t.true((await redises[0]!.keys('svc:rl:mcp-tools:agent_key:*')).length > 0);
  } finally {
    for (const s of servers) await closeServer(s, 100);
    for (const r of redises) r.disconnect();
  }
});
