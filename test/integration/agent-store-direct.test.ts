// The store-direct green-check and switch: POST /apps/{id}/validate-store-credentials runs the workflow
// credential-check/{app_id}/{platform} (a check already running is joined), whose activity makes one live call to
// the store through Apple's and Google's libraries (local stubs verifying the ES256 App Store JWT and the RS256
// Google service-account assertion) and records ok / failed / retryable with a human-readable reason;
// POST /apps/{id}/activate-store-direct switches the platform only after 'ok', and the SDK's init then answers
// store_direct. No credential 409, missing scope 403, other org 404; no answer holds a secret.
import test from 'ava';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startAppleStub, type AppleStub } from '../stubs/apple-api.js';
import { startGoogleStub, type GoogleStub } from '../stubs/google-api.js';

const { h } = useSeededHarness(test);
let apple: AppleStub;
let google: GoogleStub;
let other: Account;

type Account = SeededApp & { key: string };
const KEY_ID = 'ABCDE12345';
const ISSUER = '57246542-96fe-1a63-e053-0824d011072a';
const BUNDLE = 'com.example.app';
const CLIENT_EMAIL = 'svc@proj.iam.gserviceaccount.com';

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const open = (url: string, body: unknown) =>
  request(h().baseUrl, 'POST', url.slice(h().baseUrl.length), { body, headers: { accept: 'text/html' } });
const pem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

async function account(scopes: readonly Scope[] = SCOPES): Promise<Account> {
  const app = await seedApp(h().db);
  return { ...app, key: (await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes })).key };
}

async function upload(a: Account, body: Record<string, unknown>) {
  const link = await agent(a.key, 'POST', `/apps/${a.app_id}/credential-setup-link`, { platform: body.platform });
  const stored = await open(link.body.url as string, body);
  if (stored.status !== 200) throw new Error(stored.text);
}

/** Uploads a fresh P-256 key; answers its key pair. */
async function uploadIos(a: Account) {
  const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  await upload(a, {
    platform: 'ios',
    key_id: KEY_ID,
    issuer_id: ISSUER,
    bundle_id: BUNDLE,
    environment: 'sandbox',
    private_key: pem(pair.privateKey),
  });
  return pair;
}

async function uploadAndroid(a: Account) {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const json = { type: 'service_account', client_email: CLIENT_EMAIL, private_key: pem(pair.privateKey), project_id: 'proj' };
  await upload(a, { platform: 'android', package_name: 'com.example.game', service_account_json: json });
  return pair;
}

const validate = (a: Account, platform: string) => agent(a.key, 'POST', `/apps/${a.app_id}/validate-store-credentials`, { platform });
const activate = (a: Account, platform: string) => agent(a.key, 'POST', `/apps/${a.app_id}/activate-store-direct`, { platform });
const noSecret = (t: { false(v: boolean, m?: string): void }, text: string) => t.false(/PRIVATE KEY|eyJ|ya29\./.test(text), text);

test.before(async () => {
  await h.ready();
  [apple, google] = await Promise.all([startAppleStub(), startGoogleStub()]);
  // iOS activation also needs trusted Apple roots configured (any path: the JWS verifier comes with /sdk/purchase).
  Object.assign(h().config, {
    APPLE_API_ROOT: apple.url,
    GOOGLE_PLAY_API_ROOT: google.url,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    APPLE_ROOT_CERTS: '/etc/ssl/certs/apple-root-g3.pem',
  });
  other = await account();
});

test.after.always(async () => {
  await Promise.all([apple?.close(), google?.close()]);
});

test.afterEach.always(() => {
  apple.failWith = null;
  google.failWith = null;
});

test.serial('iOS: a valid .p8 key passes the check, activation switches the platform, and SDK init answers store_direct', async (t) => {
  const a = await account();
  const { publicKey } = await uploadIos(a);
  apple.expect = { publicKey, kid: KEY_ID, iss: ISSUER, bid: BUNDLE };

  t.is((await activate(a, 'ios')).status, 409, 'unchecked credential cannot be activated');
  const before = await sdkClient(h().baseUrl, a.sdk_key).post('/init', { app_version: '1.0', sdk_version: '1.0.0', platform: 'ios' });
  t.is(before.body.store_direct, false);

  const res = await validate(a, 'ios');
  t.is(res.status, 200, res.text);
  t.like(res.body, { platform: 'ios', status: 'ok', passed: true, retryable: false, workflow_id: `credential-check/${a.app_id}/ios` });
  t.regex(res.body.reason, /Apple accepted key ABCDE12345 for com\.example\.app/);
  t.false('error' in res.body);
  t.truthy(res.body.checked_at);
  noSecret(t, res.text);
  t.true(apple.calls.at(-1)!.ok);
  t.like(await h().db('store_credentials').where({ app_id: a.app_id, platform: 'ios' }).first(), {
    check_status: 'ok',
    check_attempts: 1,
    last_error: null,
  });

  const act = await activate(a, 'ios');
  t.is(act.status, 200, act.text);
  t.deepEqual(act.body, { platform: 'ios', store_direct: true });
  t.like(await h().db('apps').where('id', a.app_id).first(), { ios_validation_provider: 'app_store', android_validation_provider: null });
  const init = await sdkClient(h().baseUrl, a.sdk_key).post('/init', { app_version: '1.0', sdk_version: '1.0.0', platform: 'ios' });
  t.is(init.status, 200, init.text);
  t.is(init.body.store_direct, true);
  const android = await sdkClient(h().baseUrl, a.sdk_key).post('/init', { app_version: '1.0', sdk_version: '1.0.0', platform: 'android' });
  t.is(android.body.store_direct, false);
  const status = await agent(a.key, 'GET', `/apps/${a.app_id}/validation-status`);
  t.like(status.body.platforms.ios, { validation_path: 'store-direct', ready: true });
});

test.serial('iOS: a key Apple does not know fails the check (no secret in the answer) and activation stays refused', async (t) => {
  const a = await account();
  await uploadIos(a);
  apple.expect = { publicKey: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey, kid: KEY_ID, iss: ISSUER, bid: BUNDLE };
  const res = await validate(a, 'ios');
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    platform: 'ios',
    status: 'failed',
    passed: false,
    retryable: false,
    error: 'Apple refused the key: check key id, issuer id and bundle id',
    reason: 'Apple refused the key: check key id, issuer id and bundle id',
  });
  noSecret(t, res.text);
  const act = await activate(a, 'ios');
  t.is(act.status, 409);
  t.regex(act.text, /validate-store-credentials/);
  t.like(await h().db('apps').where('id', a.app_id).first(), { ios_validation_provider: null });
});

test.serial('a store outage is retryable and counts attempts; the next check can pass', async (t) => {
  const a = await account();
  const { publicKey } = await uploadIos(a);
  apple.expect = { publicKey, kid: KEY_ID, iss: ISSUER, bid: BUNDLE };
  apple.failWith = 503;
  const res = await validate(a, 'ios');
  t.like(res.body, { status: 'retryable', retryable: true });
  t.regex(res.body.error, /503/);
  t.is((await activate(a, 'ios')).status, 409);
  const status = await agent(a.key, 'GET', `/apps/${a.app_id}/validation-status`);
  t.like(status.body.platforms.ios.store_credential, { check_status: 'retryable', retryable: true, passed: false, check_attempts: 1 });
  apple.failWith = null;
  t.like((await validate(a, 'ios')).body, { status: 'ok' });
  t.like((await agent(a.key, 'GET', `/apps/${a.app_id}/validation-status`)).body.platforms.ios.store_credential, {
    check_status: 'ok',
    passed: true,
    retryable: false,
    last_error: null,
  });
  t.like(await h().db('store_credentials').where({ app_id: a.app_id, platform: 'ios' }).first(), {
    check_status: 'ok',
    check_attempts: 2,
    last_error: null,
  });

  const g = await account();
  const { publicKey: rsa } = await uploadAndroid(g);
  google.expect = { publicKey: rsa, clientEmail: CLIENT_EMAIL, packageName: 'com.example.game' };
  google.failWith = 503;
  t.like((await validate(g, 'android')).body, { platform: 'android', status: 'retryable', retryable: true });
});

test.serial('Android: the service account gets a token, reads the package, and activation switches to google_play', async (t) => {
  const a = await account();
  const { publicKey } = await uploadAndroid(a);
  google.expect = { publicKey, clientEmail: CLIENT_EMAIL, packageName: 'com.example.game' };
  const res = await validate(a, 'android');
  t.is(res.status, 200, res.text);
  t.like(res.body, { platform: 'android', status: 'ok', retryable: false });
  noSecret(t, res.text);
  t.deepEqual(
    google.calls.slice(-2).map((c) => c.status),
    [200, 200],
  );
  t.is((await activate(a, 'android')).status, 200);
  t.like(await h().db('apps').where('id', a.app_id).first(), { android_validation_provider: 'google_play', ios_validation_provider: null });
  t.is(
    (await sdkClient(h().baseUrl, a.sdk_key).post('/init', { app_version: '1.0', sdk_version: '1.0.0', platform: 'android' })).body
      .store_direct,
    true,
  );

  // Another key (signature refused at the token endpoint) and a package the account cannot see both fail.
  const b = await account();
  await uploadAndroid(b);
  const wrong = await validate(b, 'android');
  t.like(wrong.body, { status: 'failed', retryable: false });
  noSecret(t, wrong.text);
  t.is((await activate(b, 'android')).status, 409);
  google.expect = { publicKey, clientEmail: CLIENT_EMAIL, packageName: 'com.other.app' };
  t.like((await validate(a, 'android')).body, { status: 'failed' });
});

test.serial('a check already running is joined: two calls at once make one store call and get one result', async (t) => {
  const a = await account();
  const { publicKey } = await uploadIos(a);
  apple.expect = { publicKey, kid: KEY_ID, iss: ISSUER, bid: BUNDLE };
  apple.delayMs = 1500;
  const before = apple.calls.length;
  try {
    const first = validate(a, 'ios');
    await new Promise((r) => setTimeout(r, 300));
    const [one, two] = await Promise.all([first, validate(a, 'ios')]);
    t.is(one.status, 200, one.text);
    t.deepEqual(two.body, one.body);
    t.is(apple.calls.length - before, 1);
    t.like(await h().db('store_credentials').where({ app_id: a.app_id, platform: 'ios' }).first(), {
      check_status: 'ok',
      check_attempts: 1,
    });
  } finally {
    apple.delayMs = 0;
  }
  // Once closed, the next call checks again.
  t.like((await validate(a, 'ios')).body, { status: 'ok' });
  t.is(apple.calls.length - before, 2);
});

test.serial('no uploaded credential is 409 naming the upload link; bad platform 422', async (t) => {
  const a = await account();
  const res = await validate(a, 'android');
  t.is(res.status, 409);
  t.regex(res.text, new RegExp(`/api/agent/apps/${a.app_id}/credential-setup-link`));
  t.is((await activate(a, 'ios')).status, 409);
  t.is((await validate(a, 'web')).status, 422);
  t.is((await activate(a, 'windows')).status, 422);
});

test.serial('scopes: validate needs integration:verify, activate needs apps:write (403); other org 404', async (t) => {
  const a = await account();
  const narrow = await createAgentKey(h().db, { orgId: a.org_id, name: 'narrow', scopes: ['apps:read'] });
  const v = await agent(narrow.key, 'POST', `/apps/${a.app_id}/validate-store-credentials`, { platform: 'ios' });
  t.is(v.status, 403);
  t.regex(v.text, /integration:verify/);
  const act = await agent(narrow.key, 'POST', `/apps/${a.app_id}/activate-store-direct`, { platform: 'ios' });
  t.is(act.status, 403);
  t.regex(act.text, /apps:write/);

  await uploadIos(other);
  t.is((await validate(a, 'ios')).status, 409);
  t.is((await agent(a.key, 'POST', `/apps/${other.app_id}/validate-store-credentials`, { platform: 'ios' })).status, 404);
  t.is((await agent(a.key, 'POST', `/apps/${other.app_id}/activate-store-direct`, { platform: 'ios' })).status, 404);
  t.like(await h().db('store_credentials').where({ app_id: other.app_id, platform: 'ios' }).first(), {
    check_status: 'unchecked',
    check_attempts: 0,
  });
});

test.serial('iOS activation is refused while the server has no trusted Apple roots (APPLE_ROOT_CERTS)', async (t) => {
  const saved = h().config.APPLE_ROOT_CERTS;
  h().config.APPLE_ROOT_CERTS = undefined;
  try {
    const a = await account();
    const res = await activate(a, 'ios');
    t.is(res.status, 409);
    t.regex(res.body.detail, /APPLE_ROOT_CERTS/);
  } finally {
    h().config.APPLE_ROOT_CERTS = saved;
  }
});
