// What a user consented to (oauth_grants): the organizations and scopes a client may use. The id is the
// authorization server's grant id, so the codes and tokens of a grant (db/oauth-store.ts) are found by it.
// Revoking sets revoked_at; the caller also destroys the grant's tokens so refresh and access stop at once.
import type { Knex } from 'knex';
import type { OauthGrantRow } from '../schema/types.js';

/** A live grant with the organizations the user still belongs to (a grant never outlives a membership). */
export async function findActiveOauthGrant(db: Knex, id: string): Promise<(OauthGrantRow & { live_org_ids: string[] }) | undefined> {
  const row = await db('oauth_grants').where('id', id).whereNull('revoked_at').first<OauthGrantRow | undefined>();
  if (!row) return undefined;
  const member = await db('memberships').where('user_id', row.user_id).whereIn('org_id', row.org_ids).pluck<string[]>('org_id');
  return { ...row, live_org_ids: row.org_ids.filter((o) => member.includes(o)) };
}

export async function listOauthGrants(db: Knex, userId: string): Promise<OauthGrantRow[]> {
  return db('oauth_grants').where('user_id', userId).orderBy('created_at', 'desc').select<OauthGrantRow[]>('*');
}
