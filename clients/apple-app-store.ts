// The App Store Server API green-check: an ES256 token signed with the uploaded .p8 key (key id, issuer id, bundle
// id) and one real call, POST /inApps/v1/notifications/test. 401/403 means the key is wrong; 5xx, 429 or no answer
// is retryable.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { retryable, signJwt, withRoot, type StoreApiConfig, type StoreCheckOutcome } from './store-check.js';

const APPLE_ROOTS = { PRODUCTION: 'https://api.storekit.itunes.apple.com', SANDBOX: 'https://api.storekit-sandbox.itunes.apple.com' } as const;

export async function checkAppleKey(config: StoreApiConfig, secret: string, meta: Record<string, string | null>, timeoutMs: number): Promise<StoreCheckOutcome> {
  let key: KeyObject;
  try {
    key = createPrivateKey(secret);
  } catch {
    return { status: 'failed', error: 'The stored .p8 key is not a readable private key: upload it again' };
  }
  const iat = Math.floor(Date.now() / 1000);
  const jwt = signJwt('ES256', key, { kid: meta.key_id, typ: 'JWT' }, { iss: meta.issuer_id, iat, exp: iat + 600, aud: 'appstoreconnect-v1', bid: meta.bundle_id });
  const root = config.APPLE_API_ROOT ?? (meta.environment === 'PRODUCTION' ? APPLE_ROOTS.PRODUCTION : APPLE_ROOTS.SANDBOX);
  let res: Response;
  try {
    res = await fetch(new URL('inApps/v1/notifications/test', withRoot(root)), {
      method: 'POST', headers: { authorization: `Bearer ${jwt}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs),
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
