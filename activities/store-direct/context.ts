// What the store-direct activities share: the database, the running configuration, and what is built from it
// (kept while the configuration holds: tests change it on the running object, so it is read at call time).
import type { Knex } from 'knex';
import type { Config } from '../../runtime/config.js';
import { AppleTransactionVerifier, loadAppleRoots } from '../../clients/apple-app-store.js';
import { loadCredential, UnreadableCredentialError } from '../../db/store-credentials.js';
import { SecretBox } from '../../lib/secret-box.js';

export interface StoreDirectDeps {
  db: Knex;
  config: Config;
}

/** What the activities of this area share: the deps and the things built from configuration, kept while it holds. */
export interface StoreDirectContext extends StoreDirectDeps {
  secretBox(): SecretBox | undefined;
  /** undefined while APPLE_ROOT_CERTS is not configured. */
  appleVerifier(): AppleTransactionVerifier | undefined;
}

export function contextOf(deps: StoreDirectDeps): StoreDirectContext {
  let box: { key: string; box: SecretBox } | undefined;
  let apple: { roots: string; verifier: AppleTransactionVerifier } | undefined;
  return {
    ...deps,
    secretBox() {
      const key = deps.config.SVC_MASTER_KEY;
      if (!key) return undefined;
      if (box?.key !== key) box = { key, box: new SecretBox(key) };
      return box.box;
    },
    appleVerifier() {
      const roots = deps.config.APPLE_ROOT_CERTS;
      if (!roots) return undefined;
      if (apple?.roots !== roots)
        apple = { roots, verifier: new AppleTransactionVerifier(loadAppleRoots(roots), deps.config.APPLE_JWS_ONLINE_CHECKS) };
      return apple.verifier;
    },
  };
}

export const UNREADABLE_SERVICE_ACCOUNT =
  'The stored Google Play service account cannot be decrypted: upload it again through the credential-setup link.';

/**
 * The app's Google Play service account; undefined when none is stored (or no master key is configured), null when
 * it cannot be decrypted. A database fault is thrown as it is: an outage, retried, never "missing".
 */
export async function readAndroidCredential(ctx: StoreDirectContext, appId: string): Promise<string | null | undefined> {
  const box = ctx.secretBox();
  if (!box) return undefined;
  try {
    return await loadCredential(ctx.db, box, appId, 'android');
  } catch (err) {
    if (err instanceof UnreadableCredentialError) return null;
    throw err;
  }
}
