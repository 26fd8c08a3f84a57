// The Google Play green-check: an OAuth token for the uploaded service account (RS256 JWT bearer grant at
// GOOGLE_TOKEN_URL) and one real androidpublisher call (the app's reviews). 401/403/404 means access is missing;
// 5xx, 429 or no answer is retryable.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { retryable, signJwt, withRoot, type StoreApiConfig, type StoreCheckOutcome } from './store-check.js';

const ANDROID_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

export async function checkGoogleServiceAccount(config: StoreApiConfig, secret: string, meta: Record<string, string | null>, timeoutMs: number): Promise<StoreCheckOutcome> {
  let account: { client_email?: string; private_key?: string };
  let key: KeyObject;
  try {
    account = JSON.parse(secret) as typeof account;
    key = createPrivateKey(account.private_key ?? '');
  } catch {
    return { status: 'failed', error: 'The stored service account key is not readable: upload the JSON key again' };
  }
  const iat = Math.floor(Date.now() / 1000);
  const assertion = signJwt('RS256', key, { typ: 'JWT' }, { iss: account.client_email, scope: ANDROID_SCOPE, aud: config.GOOGLE_TOKEN_URL, iat, exp: iat + 600 });
  let token: string | undefined;
  try {
    const res = await fetch(config.GOOGLE_TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
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
    const url = new URL(`androidpublisher/v3/applications/${encodeURIComponent(meta.package_name ?? '')}/reviews?maxResults=1`, withRoot(config.GOOGLE_PLAY_API_ROOT));
    res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
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
