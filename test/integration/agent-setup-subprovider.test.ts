// POST /api/agent/apps/{app_id}/setup-subprovider (svc_setup_subprovider) against a local stub of the provider's
// REST API, the real API and a real database: autowire with the stored provider key (the webhook secret is rotated
// and sent only to the provider; the header the provider received really authenticates a webhook), idempotent
// (updates our integration, never a duplicate), and without a key, with autowire false, on 401 or 503 the numbered
// dashboard steps with nothing rotated. Also the third credential-upload kind (`platform: "subprovider"`). No secret
// in any answer or log line.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { closeServer, createApp, listen } from '../../api/app.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { loadCredential } from '../../db/store-credentials.js';
import { saveCredential } from '../../db/store-credentials-writes.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { SecretBox } from '../../lib/secret-box.js';
import { createLogger } from '../../runtime/logger.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { providerEvent, sendWebhook } from '../helpers/subprovider-events.js';
import { startSubproviderStub, type SubproviderStub } from '../stubs/subprovider.js';

const PROVIDER_KEY = 'sk_test_AbCdEf0123456789_provider';
let stub: SubproviderStub;
const ready = startSubproviderStub(PROVIDER_KEY).then((s) => {
  stub = s;
  return s;
});
const h = useHarness(test, { worker: false, api: false });

// The API runs with a logger whose every line (debug and up) the tests read.
const logLines: string[] = [];
let server: Server;
let baseUrl = '';

test.before(async () => {
  await h.ready();
  await ready;
  const config = h().config;
  config.SUBPROVIDER_API_ROOT = stub.url;
  const logger = createLogger(
    'debug',
    'test',
    new Writable({
      write(chunk: Buffer, _e, cb) {
        logLines.push(chunk.toString());
        cb();
      },
    }),
  );
  server = await listen(createApp({ config, db: h().db, temporal: h().temporal, logger }), 0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config.BASE_URL = baseUrl;
  config.DASHBOARD_URL = `${baseUrl}/dashboard`;
});
test.after.always(async () => {
  if (server) await closeServer(server, 100);
  await stub?.close();
});

type Account = SeededApp & { key: string };

async function account(opts: { providerKey?: string | null; scopes?: readonly Scope[] } = {}): Promise<Account> {
  const app = await seedApp(h().db);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: opts.scopes ?? SCOPES });
  const providerKey = opts.providerKey === undefined ? PROVIDER_KEY : opts.providerKey;
  if (providerKey) await saveCredential(h().db, new SecretBox(h().config.SVC_MASTER_KEY!), app.app_id, 'subprovider', providerKey);
  return { ...app, key: key.key };
}

const setup = (a: Account, body?: unknown) =>
  request(baseUrl, 'POST', `/api/agent/apps/${a.app_id}/setup-subprovider`, { token: a.key, body });
const webhookUrl = (a: SeededApp) => `${baseUrl}/api/webhooks/subprovider/${a.app_id}`;
const integrationsFor = (a: SeededApp) => stub.integrations.filter((i) => i.url === webhookUrl(a));
const testEvent = () => providerEvent('test', { id: randomUUID() });
const connectedAt = async (a: SeededApp) =>
  (await h().db('apps').where('id', a.app_id).first('webhook_connected_at')).webhook_connected_at as Date | null;
const secretHash = async (a: SeededApp) =>
  (await h().db('apps').where('id', a.app_id).first('webhook_secret_hash')).webhook_secret_hash as string;

function assertNoSecret(t: import('ava').ExecutionContext, text: string, secrets: (string | undefined)[]) {
  for (const s of secrets) if (s) t.false(text.includes(s), `a secret leaked: ...${s.slice(-4)}`);
  t.notRegex(text, /rc_webhook_[A-Za-z0-9]/);
  t.notRegex(text, /sk_[A-Za-z0-9]/);
}

test.serial(
  'autowire: the provider receives our URL and an Authorization header that really authenticates a webhook; TEST connects it',
  async (t) => {
    const a = await account();
    const logsBefore = logLines.length;
    const res = await setup(a);
    t.is(res.status, 200, res.text);
    t.like(res.body, {
      app_id: a.app_id,
      autowired: true,
      webhook_url: webhookUrl(a),
      authorization: 'set by the service',
      webhook_secret_rotated: true,
      webhook_connected: false,
      reason: null,
      provider: { project_id: 'proj1ab2c3d4', action: 'created', duplicate_integration_ids: [] },
    });
    t.deepEqual(res.body.subscriber_attributes, ['svc_code', 'svc_referral']);
    t.regex(res.body.subscriber_attributes_note, /literal string "true"/);
    t.true(res.body.steps.length >= 3);
    t.regex(res.body.steps[0], /^1\. .*TEST event/);
    t.is(res.body.credential_upload, undefined);

    const [integration, ...others] = integrationsFor(a);
    t.is(others.length, 0);
    t.like(integration, {
      project_id: 'proj1ab2c3d4',
      name: 'svc referral attribution',
      app_id: null,
      environment: null,
      event_types: null,
    });
    t.is(res.body.provider.webhook_integration_id, integration!.id);
    t.regex(integration!.authorization_header!, /^Bearer rc_webhook_/);
    const write = stub.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/v2/')).at(-1)!;
    t.is(write.authorization, `Bearer ${PROVIDER_KEY}`);
    t.is(write.path, '/v2/projects/proj1ab2c3d4/integrations/webhooks');

    // The old secret died; the provider's header is the one that now works.
    t.is((await sendWebhook(baseUrl, a.app_id, a.webhook_secret, testEvent())).status, 401);
    t.is(await connectedAt(a), null);
    const delivered = await sendWebhook(baseUrl, a.app_id, undefined, testEvent(), integration!.authorization_header!);
    t.is(delivered.status, 200, delivered.text);
    t.true(delivered.body.received);
    t.truthy(await connectedAt(a));
    const status = await request(baseUrl, 'GET', `/api/agent/apps/${a.app_id}/validation-status`, { token: a.key });
    t.like(status.body.webhook, { connected: true, subprovider_api_key_stored: true });

    const audit = await h().db('audit_log').where({ action: 'svc_setup_subprovider', target_id: a.app_id });
    t.is(audit.length, 1);
    const newSecret = integration!.authorization_header!.replace(/^Bearer /, '');
    assertNoSecret(t, res.text, [PROVIDER_KEY, newSecret, a.webhook_secret]);
    t.true(logLines.length > logsBefore, 'the API logged these requests');
    assertNoSecret(t, logLines.slice(logsBefore).join('\n'), [PROVIDER_KEY, newSecret]);
  },
);

test.serial('a second call updates our integration (found across pages, matched by URL) instead of creating a duplicate', async (t) => {
  const a = await account();
  const b = await account();
  t.true((await setup(b)).body.autowired);
  t.true((await setup(a, { autowire: true, project_id: 'proj1ab2c3d4' })).body.autowired);
  const first = integrationsFor(a)[0]!;
  const firstHeader = first.authorization_header;
  first.name = 'Named by a human';
  stub.pageSize = 1;
  try {
    const again = await setup(a, { app_id_at_provider: 'app1a2b3c4d' });
    t.is(again.status, 200, again.text);
    t.like(again.body, { autowired: true, provider: { action: 'updated', webhook_integration_id: first.id } });
  } finally {
    stub.pageSize = 100;
  }
  const mine = integrationsFor(a);
  t.is(mine.length, 1);
  t.like(mine[0], { id: first.id, name: 'Named by a human', app_id: 'app1a2b3c4d' });
  t.not(mine[0]!.authorization_header, firstHeader);
  t.is((await sendWebhook(baseUrl, a.app_id, undefined, testEvent(), firstHeader!)).status, 401);
  t.is((await sendWebhook(baseUrl, a.app_id, undefined, testEvent(), mine[0]!.authorization_header!)).status, 200);
  t.is(integrationsFor(b).length, 1, "another app's integration is untouched");

  // Concurrent setups of one app run one after the other (the app row is locked): still one integration.
  const c = await account();
  const both = await Promise.all([setup(c), setup(c)]);
  t.deepEqual(both.map((r) => r.body.provider?.action).sort(), ['created', 'updated']);
  t.is(integrationsFor(c).length, 1);
  t.is((await sendWebhook(baseUrl, c.app_id, undefined, testEvent(), integrationsFor(c)[0]!.authorization_header!)).status, 200);
  t.is((await sendWebhook(baseUrl, b.app_id, undefined, testEvent(), integrationsFor(b)[0]!.authorization_header!)).status, 200);
});

test.serial('no stored key: numbered dashboard steps and the credential upload link, nothing rotated, nothing sent', async (t) => {
  const a = await account({ providerKey: null });
  const hash = await secretHash(a);
  const calls = stub.calls.length;
  const res = await setup(a);
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    autowired: false,
    webhook_url: webhookUrl(a),
    authorization: 'rotate with regenerate-webhook-secret and paste',
    webhook_secret_rotated: false,
    reason: { code: 'no_provider_key', retryable: false },
    credential_upload: {
      next_tool: 'svc_get_credential_upload_link',
      call: `POST /api/agent/apps/${a.app_id}/credential-setup-link`,
      body: { platform: 'subprovider' },
    },
  });
  t.deepEqual(res.body.subscriber_attributes, ['svc_code', 'svc_referral']);
  const steps: string[] = res.body.steps;
  steps.forEach((s, i) => t.true(s.startsWith(`${i + 1}. `), s));
  t.true(steps.some((s) => s.includes('regenerate-webhook-secret')));
  t.true(steps.some((s) => s.includes(webhookUrl(a))));
  t.true(steps.some((s) => s.includes('Authorization header')));
  t.true(steps.some((s) => /TEST event.*connected/.test(s)));
  t.is(stub.calls.length, calls);
  t.is(await secretHash(a), hash);
  t.is((await sendWebhook(baseUrl, a.app_id, a.webhook_secret, testEvent())).status, 200);

  // autowire false: steps even with a stored key, and the provider is not asked.
  const withKey = await account();
  const off = await setup(withKey, { autowire: false });
  t.like(off.body, { autowired: false, reason: { code: 'autowire_disabled' }, webhook_secret_rotated: false });
  t.is(off.body.credential_upload, undefined);
  t.is(stub.calls.length, calls);
});

test.serial('the provider refuses the key (401): steps with the reason and the upload hint; nothing rotated', async (t) => {
  const a = await account({ providerKey: 'sk_wrong_key_0123456789' });
  const hash = await secretHash(a);
  const res = await setup(a);
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    autowired: false,
    authorization: 'rotate with regenerate-webhook-secret and paste',
    reason: { code: 'provider_key_rejected', retryable: false },
  });
  t.regex(res.body.reason.message, /401/);
  t.truthy(res.body.credential_upload);
  t.is(await secretHash(a), hash);
  assertNoSecret(t, res.text, ['sk_wrong_key_0123456789']);
});

test.serial('the provider fails the write (503): retryable steps, the rotation rolled back, the old secret still works', async (t) => {
  const a = await account();
  const hash = await secretHash(a);
  stub.failWritesWith = 503;
  let res;
  try {
    res = await setup(a);
  } finally {
    stub.failWritesWith = null;
  }
  t.is(res.status, 200, res.text);
  t.like(res.body, { autowired: false, webhook_secret_rotated: false, reason: { code: 'provider_unavailable', retryable: true } });
  t.regex(res.body.reason.message, /503/);
  t.truthy(res.body.retry);
  t.is(res.body.credential_upload, undefined);
  t.is(integrationsFor(a).length, 0);
  t.is(await secretHash(a), hash);
  t.is((await sendWebhook(baseUrl, a.app_id, a.webhook_secret, testEvent())).status, 200);

  // Unreachable provider: retryable too.
  stub.failWith = 502;
  try {
    t.like((await setup(a)).body, { reason: { code: 'provider_unavailable', retryable: true } });
  } finally {
    stub.failWith = null;
  }
  t.is(await secretHash(a), hash);
});

test.serial('an unknown project is named; several projects need project_id', async (t) => {
  const a = await account();
  t.like((await setup(a, { project_id: 'projNope' })).body, { autowired: false, reason: { code: 'project_not_found' } });
  stub.projects.push({ id: 'proj2', name: 'Other' });
  try {
    const res = await setup(a);
    t.like(res.body, { autowired: false, reason: { code: 'project_id_required' } });
    t.deepEqual(
      res.body.reason.projects.map((p: { id: string }) => p.id),
      ['proj1ab2c3d4', 'proj2'],
    );
  } finally {
    stub.projects.pop();
  }
  t.is((await setup(a, { project_id: 'bad id!' })).status, 422);
  t.is((await setup(a, { autowire: 'yes' })).status, 422);
  const keyThroughAgent = await setup(a, { secret_api_key: PROVIDER_KEY });
  t.is(keyThroughAgent.status, 422, 'the provider key never passes through the agent');
  assertNoSecret(t, keyThroughAgent.text, [PROVIDER_KEY]);
});

test.serial("scope apps:write (403 naming it) and tenancy (another org's app is 404, never touched)", async (t) => {
  const a = await account();
  const readOnly = await createAgentKey(h().db, { orgId: a.org_id, name: 'ro', scopes: ['apps:read', 'integration:verify'] });
  const denied = await request(baseUrl, 'POST', `/api/agent/apps/${a.app_id}/setup-subprovider`, { token: readOnly.key, body: {} });
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /apps:write/);
  const other = await account();
  const hash = await secretHash(other);
  const foreign = await request(baseUrl, 'POST', `/api/agent/apps/${other.app_id}/setup-subprovider`, { token: a.key, body: {} });
  t.is(foreign.status, 404);
  t.is(await secretHash(other), hash);
  t.is(integrationsFor(other).length, 0);
  t.is((await request(baseUrl, 'POST', '/api/agent/apps/app_nope/setup-subprovider', { token: a.key })).status, 404);
  const doc = await request(baseUrl, 'GET', '/api/agent/openapi.json');
  t.deepEqual(doc.body.paths['/apps/{app_id}/setup-subprovider'].post['x-required-scopes'], ['apps:write']);
});

test.serial(
  'credential link, third kind: the human uploads the provider key (422 ' +
    'naming the field), stored encrypted, never echoed; then autowire works',
  async (t) => {
    const a = await account({ providerKey: null });
    const link = await request(baseUrl, 'POST', `/api/agent/apps/${a.app_id}/credential-setup-link`, {
      token: a.key,
      body: { platform: 'subprovider' },
    });
    t.is(link.status, 200, link.text);
    const url: string = link.body.url;
    t.is(new URL(url).searchParams.get('platform'), 'subprovider');
    const open = (method: string, body?: unknown) =>
      request(baseUrl, method, url.slice(baseUrl.length), { body, headers: { accept: 'text/html' } });
    const page = await open('GET');
    t.is(page.status, 200);
    t.regex(page.text, /secret API key/);

    for (const bad of [{}, { secret_api_key: 'nope' }, { secret_api_key: 'appl_PublicKey123456' }, { secret_api_key: 42 }]) {
      const res = await open('POST', { platform: 'subprovider', ...bad });
      t.is(res.status, 422, JSON.stringify(bad));
      t.deepEqual(
        res.body.detail.map((d: { loc: string[] }) => d.loc),
        [['body', 'secret_api_key']],
      );
      t.false(res.text.includes('appl_PublicKey123456'));
    }
    t.regex((await open('POST', { platform: 'subprovider', secret_api_key: 'appl_PublicKey123456' })).body.detail[0].msg, /public SDK key/);
    t.is(
      (await open('POST', { platform: 'ios', secret_api_key: PROVIDER_KEY })).status,
      422,
      'a subprovider link takes only the provider key',
    );

    const stored = await open('POST', { platform: 'subprovider', secret_api_key: `  ${PROVIDER_KEY} ` });
    t.is(stored.status, 200, stored.text);
    t.deepEqual(stored.body, { stored: true, app_id: a.app_id, platform: 'subprovider' });
    assertNoSecret(t, stored.text, [PROVIDER_KEY]);
    const row = await h().db('store_credentials').where({ app_id: a.app_id, platform: 'subprovider' }).first();
    t.false(Buffer.from(row.ciphertext).toString('utf8').includes(PROVIDER_KEY));
    t.is(await loadCredential(h().db, new SecretBox(h().config.SVC_MASTER_KEY!), a.app_id, 'subprovider'), PROVIDER_KEY);
    t.is((await open('POST', { platform: 'subprovider', secret_api_key: PROVIDER_KEY })).status, 410, 'single use');

    t.like((await setup(a)).body, { autowired: true, provider: { action: 'created' } });
    assertNoSecret(t, logLines.join('\n'), [PROVIDER_KEY]);
  },
);
