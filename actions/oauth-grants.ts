// An agent's OAuth access as its human gives and takes it (db/oauth-grants-writes.ts): the consent page saves the
// grant (api/dashboard/agents/consent.tsx), revoking it (the dashboard's agents page or DELETE /oauth/grants/{id}) also
// destroys every token of the grant (db/oauth-store-writes.ts), and each authenticated use marks its last use.
import type { Knex } from 'knex';
import { revokeOauthGrant, saveOauthGrant, touchOauthGrant } from '../db/oauth-grants-writes.js';
import { destroyOauthItemsOfGrant } from '../db/oauth-store-writes.js';

export async function recordOauthConsent(
  deps: { db: Knex },
  input: { id: string; userId: string; clientId: string; orgIds: string[]; scopes: string[] },
): Promise<void> {
  await saveOauthGrant(deps.db, input);
}

/** Revokes the user's live grant and its tokens; false when the user has no such live grant. */
export async function revokeOauthAccess(deps: { db: Knex }, input: { grantId: string; userId: string }): Promise<boolean> {
  if (!(await revokeOauthGrant(deps.db, input.grantId, input.userId))) return false;
  await destroyOauthItemsOfGrant(deps.db, input.grantId);
  return true;
}

export async function noteOauthGrantUse(deps: { db: Knex }, input: { grantId: string }): Promise<void> {
  await touchOauthGrant(deps.db, input.grantId);
}
