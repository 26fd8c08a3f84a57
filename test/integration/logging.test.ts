// Logs are structured, carry the request id, and never carry a credential.
import { Router } from '@koa/router';
import test from 'ava';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { closeServer, createApp, listen } from '../../api/app.js';
import type { AppContext, RequestState } from '../../api/context.js';
import { requestLog } from '../../api/middleware/request-context.js';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/logger.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';

const h = useHarness(test, { worker: false, api: false });

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, logger: createLogger(level, 'test', stream) };
}

test('secret-looking fields are redacted wherever they appear', (t) => {
  const { lines, logger } = capture();
  logger.info(
    {
      req: { headers: { authorization: 'Bearer it_mcp_SECRET1' } },
      body: { webhook_secret: 'rc_webhook_SECRET2', password: 'SECRET3' },
      agent_key: 'it_mcp_SECRET4',
    },
    'x',
  );
  const text = JSON.stringify(lines);
  for (const secret of ['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4']) t.false(text.includes(secret), secret);
  t.true(text.includes('[redacted]'));
});

test('the access log has the request id, method, path and status, and neither credentials nor query strings', async (t) => {
  const { lines, logger } = capture('debug');
  const router = new Router<RequestState, AppContext>();
  router.post('/probe', (ctx) => {
    requestLog(ctx).info({ body: ctx.state.body }, 'handler saw body');
    ctx.body = { ok: true };
  });
  const app = createApp({ config: loadConfig({}), db: h().db, temporal: h().temporal, logger });
  app.use(router.routes());
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await request(base, 'POST', '/probe?app_user_id=alice@example.com', {
      token: 'it_mcp_TOPSECRET',
      body: { private_key: 'PEMSECRET', code: 'ok' },
    });
    t.is(res.status, 200);
    const access = lines.find((l) => l.msg === 'request');
    t.like(access, { method: 'POST', path: '/probe', status: 200, reqId: res.headers.get('x-request-id') });
    const text = JSON.stringify(lines);
    t.false(text.includes('TOPSECRET'));
    t.false(text.includes('PEMSECRET'));
    t.false(text.includes('alice@example.com'));
  } finally {
    await closeServer(server, 100);
  }
});

test('successful requests log at debug, client errors at info', async (t) => {
  const { lines, logger } = capture('info');
  const app = createApp({ config: loadConfig({}), db: h().db, temporal: h().temporal, logger });
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await request(base, 'GET', '/healthz');
    await request(base, 'GET', '/api/sdk/init');
    const access = lines.filter((l) => l.msg === 'request');
    t.is(access.length, 1);
    t.like(access[0], { path: '/api/sdk/init', status: 401, level: 30 });
  } finally {
    await closeServer(server, 100);
  }
});
