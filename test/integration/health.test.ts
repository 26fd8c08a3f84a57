// Operator endpoints and the cross-cutting middleware every surface shares.
import { Client, Connection } from '@temporalio/client';
import test from 'ava';
import type { AddressInfo } from 'node:net';
import { closeServer, createApp, listen } from '../../api/app.js';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { createTemporalClient } from '../../runtime/temporal-client.js';
import { freePort } from '../../runtime/ports.js';
import { createTestDatabase } from '../helpers/database.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';

const h = useHarness(test, { worker: false });

test('the API root the start banner prints answers with links to every surface, each of which exists', async (t) => {
  const res = await request(h().baseUrl, 'GET', '/');
  t.is(res.status, 200, res.text);
  t.is(res.body.service, 'svc');
  for (const [name, url] of Object.entries(res.body.links as Record<string, string>)) {
    if (name === 'client_api' || name === 'mcp') continue; // prefixes of authenticated surfaces, not pages
    const path = new URL(url).pathname;
    t.not((await request(h().baseUrl, 'GET', path)).status, 404, `${name}: ${path}`);
  }
});

test('healthz answers while the process is up', async (t) => {
  const res = await request(h().baseUrl, 'GET', '/healthz');
  t.is(res.status, 200);
  t.deepEqual(res.body, { status: 'ok' });
});

test('readyz is 200 when PostgreSQL and Temporal are reachable', async (t) => {
  const res = await request(h().baseUrl, 'GET', '/readyz');
  t.is(res.status, 200);
  t.deepEqual(res.body.checks, { postgres: true, temporal: true });
});

test('readyz turns 503 naming PostgreSQL when the database goes away, and Temporal when it is unreachable', async (t) => {
  const doomed = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const deadTemporal = createTemporalClient(`127.0.0.1:${await freePort()}`, 'default');
  const liveConnection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
  const app = createApp({ config, db: doomed.db, temporal: new Client({ connection: liveConnection }), logger: createLogger('silent') });
  const server = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    t.is((await request(base, 'GET', '/readyz')).status, 200);
    await doomed.drop(); // terminates every connection and removes the database
    const down = await request(base, 'GET', '/readyz');
    t.is(down.status, 503);
    t.deepEqual(down.body.checks, { postgres: false, temporal: true });

    const app2 = createApp({ config, db: h().db, temporal: deadTemporal, logger: createLogger('silent') });
    const server2 = await listen(app2, 0, '127.0.0.1');
    const res = await request(`http://127.0.0.1:${(server2.address() as AddressInfo).port}`, 'GET', '/readyz');
    await closeServer(server2, 100);
    t.is(res.status, 503);
    t.deepEqual(res.body.checks, { postgres: true, temporal: false });
  } finally {
    await closeServer(server, 100);
    await liveConnection.close();
  }
});

test('metrics exposes the HTTP histogram labelled by route, not by raw path', async (t) => {
  await request(h().baseUrl, 'GET', '/healthz');
  await request(h().baseUrl, 'GET', '/no/such/path/123');
  const res = await request(h().baseUrl, 'GET', '/metrics');
  t.is(res.status, 200);
  t.regex(res.text, /http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/);
  t.regex(res.text, /route="unmatched",status="404"/);
  t.false(res.text.includes('/no/such/path/123'));
});

test('every response carries a request id; a sane inbound one is kept', async (t) => {
  const fresh = await request(h().baseUrl, 'GET', '/healthz');
  t.regex(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  const kept = await request(h().baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-abc.123' } });
  t.is(kept.headers.get('x-request-id'), 'trace-abc.123');
  const replaced = await request(h().baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
  t.not(replaced.headers.get('x-request-id'), 'bad id with spaces');
});

test('unknown paths are JSON 404s; a body that is not JSON is a 400 with detail', async (t) => {
  const missing = await request(h().baseUrl, 'GET', '/api/nothing-here');
  t.is(missing.status, 404);
  t.truthy(missing.body.detail);
  const bad = await request(h().baseUrl, 'POST', '/api/anything', {
    rawBody: '{not json',
    headers: { 'content-type': 'application/json' },
  });
  t.is(bad.status, 400);
  t.regex(bad.body.detail, /not valid JSON/);
});

test('a NUL byte never reaches the database: 400 in a URL, 422 naming the field in a JSON body', async (t) => {
  const url = await request(h().baseUrl, 'GET', '/api/sdk/access?app_user_id=%00');
  t.is(url.status, 400);
  t.regex(url.body.detail, /NUL/);
  const body = await request(h().baseUrl, 'POST', '/api/sdk/event', { rawBody: '{"event_type":"a","app_user_id":"x\\u0000y"}' });
  t.is(body.status, 422);
  t.deepEqual(body.body.detail[0].loc, ['body', 'app_user_id']);
  const deep = await request(h().baseUrl, 'POST', '/api/sdk/event', { rawBody: `${'['.repeat(40)}${']'.repeat(40)}` });
  t.is(deep.status, 422);
});
