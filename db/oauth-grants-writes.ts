// Writes of OAuth grants (reads stay in db/oauth-grants.ts): the consent's grant, revoking it, last use, a new organization.
import type { Knex } from 'knex';
import type { OauthGrantRow } from '../schema/types.js';

export async function saveOauthGrant(
  db: Knex,
  g: { id: string; userId: string; clientId: string; orgIds: string[]; scopes: string[] },
): Promise<void> {
  await db('oauth_grants')
    .insert({ id: g.id, user_id: g.userId, client_id: g.clientId, org_ids: g.orgIds, scopes: g.scopes })
    .onConflict('id')
    .merge({ org_ids: g.orgIds, scopes: g.scopes, revoked_at: null });
}

/** Marks the user's grant revoked; false when there is no such live grant of this user. */
export async function revokeOauthGrant(db: Knex, id: string, userId: string): Promise<boolean> {
  const n = await db('oauth_grants').where({ id, user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  return n > 0;
}

export async function touchOauthGrant(db: Knex, id: string): Promise<void> {
  await db('oauth_grants').where('id', id).update({ last_used_at: db.fn.now() });
}

/** The consent covers organizations the client creates: a new one joins the grant. */
export async function addOrgToOauthGrant(trx: Knex.Transaction, id: string, orgId: string): Promise<void> {
  await trx('oauth_grants')
    .where('id', id)
    .update({ org_ids: trx.raw('array_append(org_ids, ?)', [orgId]) });
}

/**
 * Locks a live grant's row (organizations created for one grant are created one at a time, so a repeated call finds
 * the first one's) and answers the organizations it reaches: granted and still a membership of its user.
 */
export async function lockOauthGrantOrgs(trx: Knex.Transaction, id: string): Promise<string[]> {
  const row = await trx('oauth_grants')
    .where('id', id)
    .whereNull('revoked_at')
    .forUpdate()
    .first<Pick<OauthGrantRow, 'user_id' | 'org_ids'> | undefined>('user_id', 'org_ids');
  if (!row) return [];
  return trx('memberships').where('user_id', row.user_id).whereIn('org_id', row.org_ids).pluck<string[]>('org_id');
}
