// Creator portal sign-in (docs/creator-portal.md): the mailed single-use links and the sessions they open. Only
// digests of tokens reach SQL. A link is spent by the statement that reads it (used_at set where it was null), so
// two confirms at the same moment open one session; spending it also verifies the creator's address.
import type { Knex } from 'knex';

/** The usable (unspent, unexpired) sign-in links of this digest; db/creator-sessions-writes.ts spends through it. */
export const liveSignInTokens = (db: Knex | Knex.Transaction, tokenHash: string) =>
  db('creator_sign_in_tokens').where('token_hash', tokenHash).whereNull('used_at').andWhere('expires_at', '>', db.fn.now());

/** Whether the link is still usable (the confirm page shows its button only then); spends nothing. */
export async function isSignInTokenLive(db: Knex, tokenHash: string): Promise<boolean> {
  return (await liveSignInTokens(db, tokenHash).first('id')) !== undefined;
}

export async function findActiveCreatorSessionByHash(db: Knex, hash: string): Promise<{ id: string; creatorId: string } | undefined> {
  const row = await db('creator_sessions')
    .where('token_hash', hash)
    .whereNull('revoked_at')
    .andWhere('expires_at', '>', db.fn.now())
    .first<{ id: string; creator_id: string } | undefined>('id', 'creator_id');
  return row && { id: row.id, creatorId: row.creator_id };
}
