// A store credential stored, and a platform switched to store-direct validation (docs/store-direct.md). Stored from
// the dashboard's setup page (api/dashboard/apps/credential-upload.ts) and from the signed credential link, which is spent
// in the same transaction (api/dashboard/links/link-pages.tsx): the credential and the app's Apple settings are written
// together, so a refused upload or a used link leaves nothing half-stored. Activated by the agent API
// (api/agent/store-direct.ts) only while the credential's check is 'ok'.
import type { Knex } from 'knex';
import { mergeAppleMeta } from '../db/apps-writes.js';
import { activateStoreDirect as switchToStoreDirect, saveCredential } from '../db/store-credentials-writes.js';
import type { ParsedCredential } from '../lib/credential-input.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { LinkClaims } from '../lib/signed-links.js';
import { spendLink } from './signed-links.js';
import type { StorePlatform } from '../schema/types.js';

export interface CredentialDeps {
  db: Knex;
  box: SecretBox;
}

/**
 * Stores the parsed credential (and the Apple settings it carries) for the app; with `link`, only if that signed
 * link is spent now. Answers false when the link was used already (nothing is stored).
 */
export async function storeCredential(
  deps: CredentialDeps,
  { appId, credential, link }: { appId: string; credential: ParsedCredential; link?: LinkClaims },
): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    if (link && !(await spendLink(trx, link))) return false;
    await saveCredential(trx, deps.box, appId, credential.platform, credential.secret, credential.meta);
    if (credential.appleMeta) await mergeAppleMeta(trx, appId, credential.appleMeta);
    return true;
  });
}

/** Switches the platform to store-direct validation, only while its credential's check is 'ok'; false otherwise. */
export async function activateStoreDirect(
  deps: { db: Knex },
  { appId, platform }: { appId: string; platform: StorePlatform },
): Promise<boolean> {
  return switchToStoreDirect(deps.db, appId, platform);
}
