// A deprecated endpoint announces itself as docs/compatibility.md says, everywhere a client looks: its HTTP answers
// (Deprecation, RFC 9745; Sunset, RFC 8594; Link rel="deprecation" and rel="successor-version"), its OpenAPI
// operation (`deprecated: true` and the sentence with both dates) and its MCP tool (the sentence first, the dates in
// `_meta`). No endpoint is deprecated today, so a copy of a real row is marked here and run through the same code.
import test from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { announceDeprecation, checkDeprecation, DEPRECATION_MIN_DAYS, type Deprecation } from '../../api/agent/deprecation.js';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { openApiDocument } from '../../api/agent/openapi.js';
import { endpointChain } from '../../api/agent/routes.js';
import { buildToolCatalog } from '../../api/mcp/tool-catalog.js';

const BASE = 'https://svc.example.com';
const DEPRECATED: Deprecation = { since: '2026-12-01', sunset: '2027-06-01', successor: 'GET /api/agent/doctor' };
const row = AGENT_ENDPOINTS.find((e) => e.tool === 'svc_whoami')!;
const marked = { ...row, deprecated: DEPRECATED };
const SENTENCE = 'Deprecated since 2026-12-01; may be removed after 2027-06-01. Use GET /api/agent/doctor instead.';

test('its answers carry Deprecation, Sunset and the two Links (over real HTTP)', async (t) => {
  const app = new Koa();
  (app.context as unknown as { deps: unknown }).deps = { config: { BASE_URL: BASE } };
  app.use(announceDeprecation(DEPRECATED) as unknown as Koa.Middleware);
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    t.is(res.status, 200);
    t.is(res.headers.get('deprecation'), `@${Date.UTC(2026, 11, 1) / 1000}`, 'RFC 9745: @ and the Unix time');
    t.is(res.headers.get('sunset'), 'Tue, 01 Jun 2027 00:00:00 GMT', 'RFC 8594: an HTTP date');
    const link = res.headers.get('link') ?? '';
    t.true(link.includes(`<${BASE}/api/agent/openapi.json>; rel="deprecation"`), link);
    t.true(link.includes(`<${BASE}/api/agent/doctor>; rel="successor-version"`), link);
  } finally {
    server.close();
  }
  t.is(endpointChain(marked).length, endpointChain(row).length + 1, 'the real chain runs it first');
});

test('its OpenAPI operation is deprecated: true with the sentence; others are untouched', (t) => {
  const doc = openApiDocument(BASE, [marked, AGENT_ENDPOINTS.find((e) => e.tool === 'svc_doctor')!]) as {
    paths: Record<string, Record<string, { deprecated?: boolean; description?: string }>>;
  };
  t.true(doc.paths['/whoami']!.get!.deprecated);
  t.true(doc.paths['/whoami']!.get!.description!.endsWith(SENTENCE));
  t.is(doc.paths['/doctor']!.get!.deprecated, undefined);
});

test('its MCP tool says the sentence first and carries the dates in _meta', (t) => {
  const tool = buildToolCatalog([], [marked]).definitions.find((d) => d.name === 'svc_whoami')!;
  t.true(tool.description!.startsWith(SENTENCE), tool.description);
  t.deepEqual(tool._meta?.['svc/deprecated'], { ...DEPRECATED });
  const plain = buildToolCatalog([], [row]).definitions.find((d) => d.name === 'svc_whoami')!;
  t.false(plain.description!.includes('Deprecated'));
});

test(`the table cannot give less than ${DEPRECATION_MIN_DAYS} days of notice, and every deprecated row keeps the policy`, (t) => {
  t.throws(() => checkDeprecation({ ...DEPRECATED, sunset: '2027-01-01' }), { message: /at least 180 days/ });
  t.throws(() => announceDeprecation({ ...DEPRECATED, sunset: 'soon' }));
  t.notThrows(() => checkDeprecation(DEPRECATED));
  for (const e of AGENT_ENDPOINTS.filter((x) => x.deprecated)) t.notThrows(() => checkDeprecation(e.deprecated!), e.tool);
});
