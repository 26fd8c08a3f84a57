// Dashboard sessions: looked up by the digest of the presented token; the token itself never reaches SQL or logs.
import type { Knex } from 'knex';

export interface ActiveSession {
  id: string;
  userId: string;
  orgIds: string[];
}

export async function findActiveSessionByHash(db: Knex, hash: string): Promise<ActiveSession | undefined> {
  const row = await db('sessions as s')
    .where('s.token_hash', hash)
    .whereNull('s.revoked_at')
    .andWhere('s.expires_at', '>', db.fn.now())
    .first<{ id: string; user_id: string } | undefined>('s.id', 's.user_id');
  if (!row) return undefined;
  const orgs = await db('memberships').where('user_id', row.user_id).pluck<string[]>('org_id');
  return { id: row.id, userId: row.user_id, orgIds: orgs };
}
