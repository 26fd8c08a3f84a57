// The live green-check of a stored store credential (store-direct validation): one call to the store with the
// uploaded key, and the outcome recorded in store_credentials (check_status, checked_at, check_attempts + 1,
// last_error). 'retryable' means the store could not answer (5xx, timeout, network): repeat the check later.
// Runs inside the API request with a 10 s timeout per store call (a Temporal workflow
// `credential-check/{app_id}/{platform}` is the design's intent; not wrapped yet). Errors never carry a secret.
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { loadCredentialForCheck, recordCredentialCheck, type StoreCheckStatus } from '../db/store-credential-checks.js';
import type { SecretBox } from '../lib/secret-box.js';

export interface StoreCheckDeps {
  db: Knex;
  box: SecretBox;
  config: { APPLE_API_ROOT?: string; GOOGLE_PLAY_API_ROOT: string; GOOGLE_TOKEN_URL: string };
  timeoutMs?: number;
}

export interface StoreCheckResult { status: StoreCheckStatus; checked_at: Date; error: string | null }

type Outcome = { status: StoreCheckStatus; error: string | null };

const APPLE_ROOTS = { PRODUCTION: 'https://api.storekit.itunes.apple.com', SANDBOX: 'https://api.storekit-sandbox.itunes.apple.com' } as const;
const ANDROID_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

const b64url = (v: Buffer | string) => Buffer.from(v).toString('base64url');

function signJwt(alg: 'ES256' | 'RS256', key: KeyObject, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const input = `${b64url(JSON.stringify({ alg, ...header }))}.${b64url(JSON.stringify(payload))}`;
  const signature = alg === 'ES256'
    ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
    : sign('sha256', Buffer.from(input), key);
  return `${input}.${b64url(signature)}`;
}

const retryable = (what: string, err: unknown): Outcome => ({
  status: 'retryable',
  error: `${what} unreachable (${err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network error'}); try again`,
});

const withRoot = (root: string) => (root.endsWith('/') ? root : `${root}/`);

async function checkIos(deps: StoreCheckDeps, secret: string, meta: Record<string, string | null>): Promise<Outcome> {
  let key: KeyObject;
  try {
    key = createPrivateKey(secret);
  } catch {
    return { status: 'failed', error: 'The stored .p8 key is not a readable private key: upload it again' };
  }
  const iat = Math.floor(Date.now() / 1000);
  const jwt = signJwt('ES256', key, { kid: meta.key_id, typ: 'JWT' }, { iss: meta.issuer_id, iat, exp: iat + 600, aud: 'appstoreconnect-v1', bid: meta.bundle_id });
  const root = deps.config.APPLE_API_ROOT ?? (meta.environment === 'PRODUCTION' ? APPLE_ROOTS.PRODUCTION : APPLE_ROOTS.SANDBOX);
  let res: Response;
  try {
    res = await fetch(new URL('inApps/v1/notifications/test', withRoot(root)), {
      method: 'POST', headers: { authorization: `Bearer ${jwt}`, accept: 'application/json' }, signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
    });
    await res.arrayBuffer();
  } catch (err) {
    return retryable('Apple', err);
  }
  if (res.ok) return { status: 'ok', error: null };
  if (res.status === 401 || res.status === 403) return { status: 'failed', error: 'Apple refused the key: check key id, issuer id and bundle id' };
  if (res.status >= 500 || res.status === 429) return { status: 'retryable', error: `Apple answered ${res.status}; try again` };
  return { status: 'failed', error: `Apple answered ${res.status}` };
}

async function checkAndroid(deps: StoreCheckDeps, secret: string, meta: Record<string, string | null>): Promise<Outcome> {
  let account: { client_email?: string; private_key?: string };
  let key: KeyObject;
  try {
    account = JSON.parse(secret) as typeof account;
    key = createPrivateKey(account.private_key ?? '');
  } catch {
    return { status: 'failed', error: 'The stored service account key is not readable: upload the JSON key again' };
  }
  const timeout = deps.timeoutMs ?? 10_000;
  const iat = Math.floor(Date.now() / 1000);
  const assertion = signJwt('RS256', key, { typ: 'JWT' }, { iss: account.client_email, scope: ANDROID_SCOPE, aud: deps.config.GOOGLE_TOKEN_URL, iat, exp: iat + 600 });
  let token: string | undefined;
  try {
    const res = await fetch(deps.config.GOOGLE_TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      signal: AbortSignal.timeout(timeout),
    });
    const body = await res.json().catch(() => undefined) as { access_token?: string } | undefined;
    if (res.status >= 500 || res.status === 429) return { status: 'retryable', error: `Google's token endpoint answered ${res.status}; try again` };
    if (!res.ok || !body?.access_token) return { status: 'failed', error: 'Google refused the service account: check the JSON key and that it is not revoked' };
    token = body.access_token;
  } catch (err) {
    return retryable('Google', err);
  }
  let res: Response;
  try {
    const url = new URL(`androidpublisher/v3/applications/${encodeURIComponent(meta.package_name ?? '')}/reviews?maxResults=1`, withRoot(deps.config.GOOGLE_PLAY_API_ROOT));
    res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeout) });
    await res.arrayBuffer();
  } catch (err) {
    return retryable('Google Play', err);
  }
  if (res.ok) return { status: 'ok', error: null };
  if (res.status === 401 || res.status === 403 || res.status === 404) {
    return { status: 'failed', error: `Google Play refused access (${res.status}): grant the service account access to the app in Play Console and check the package name` };
  }
  if (res.status >= 500 || res.status === 429) return { status: 'retryable', error: `Google Play answered ${res.status}; try again` };
  return { status: 'failed', error: `Google Play answered ${res.status}` };
}

/** One live check of the app's stored credential for the platform; undefined when none was uploaded. */
export async function checkStoreCredentials(deps: StoreCheckDeps, appId: string, platform: 'ios' | 'android'): Promise<StoreCheckResult | undefined> {
  const stored = await loadCredentialForCheck(deps.db, deps.box, appId, platform);
  if (!stored) return undefined;
  const outcome: Outcome = stored.secret === null
    ? { status: 'failed', error: 'The stored credential cannot be decrypted: upload it again' }
    : platform === 'ios' ? await checkIos(deps, stored.secret, stored.meta) : await checkAndroid(deps, stored.secret, stored.meta);
  const checkedAt = await recordCredentialCheck(deps.db, appId, platform, outcome.status, outcome.error);
  return { status: outcome.status, checked_at: checkedAt, error: outcome.error };
}
