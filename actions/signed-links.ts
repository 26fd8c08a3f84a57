// Spending an agent's signed link (lib/signed-links.ts) together with what it was for, in one transaction, so a link
// works once: the credential it uploads (actions/store-credentials.ts) or the assets (actions/assets.ts). The
// link's signature, purpose and expiry are checked before (api/dashboard/links/link-check.tsx).
import type { Knex } from 'knex';
import { spendSignedLink } from '../db/signed-links-writes.js';
import type { LinkClaims } from '../lib/signed-links.js';

export const LINK_USED = 'This link has already been used. Links work once: ask for a new one.';

/** Marks the link used inside the caller's transaction; false when it was used already. */
export function spendLink(trx: Knex.Transaction, claims: LinkClaims): Promise<boolean> {
  return spendSignedLink(trx, { nonce: claims.nonce, purpose: claims.purpose, orgId: claims.org, expiresAt: new Date(claims.exp * 1000) });
}
