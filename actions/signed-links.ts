// Spending an agent's signed link (lib/signed-links.ts) together with what it was for, in one transaction, so a link
// works once: the credential it uploads (api/dashboard/link-pages.tsx) or the assets (actions/assets.ts). The
// link's signature, purpose and expiry are checked before (api/dashboard/link-check.tsx).
import type { Knex } from 'knex';
import { mergeAppleMeta } from '../db/apps-writes.js';
import { spendSignedLink } from '../db/signed-links-writes.js';
import { saveCredential } from '../db/store-credentials.js';
import type { ParsedCredential } from '../lib/credential-input.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { LinkClaims } from '../lib/signed-links.js';

export const LINK_USED = 'This link has already been used. Links work once: ask for a new one.';

/** Marks the link used inside the caller's transaction; false when it was used already. */
export function spendLink(trx: Knex.Transaction, claims: LinkClaims): Promise<boolean> {
  return spendSignedLink(trx, { nonce: claims.nonce, purpose: claims.purpose, orgId: claims.org, expiresAt: new Date(claims.exp * 1000) });
}

/** The credential-upload link: spends it and stores the credential (and Apple metadata); false when it was used. */
export async function storeCredentialByLink(
  deps: { db: Knex; box: SecretBox },
  input: { claims: LinkClaims; appId: string; parsed: ParsedCredential },
): Promise<boolean> {
  const { appId, parsed } = input;
  return deps.db.transaction(async (trx) => {
    if (!(await spendLink(trx, input.claims))) return false;
    await saveCredential(trx, deps.box, appId, parsed.platform, parsed.secret, parsed.meta);
    if (parsed.appleMeta) await mergeAppleMeta(trx, appId, parsed.appleMeta);
    return true;
  });
}
