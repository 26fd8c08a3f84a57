// Creator portal sign-in (docs/creator-portal.md): the mailed single-use links and the sessions they open. Only
// digests of tokens reach SQL. A link is spent by the statement that reads it (used_at set where it was null), so
// two confirms at the same moment open one session; spending it also verifies the creator's address.
import type { Knex } from 'knex';

export async function createSignInToken(
  db: Knex | Knex.Transaction,
  t: { creatorId: string; tokenHash: string; ttlSeconds: number },
): Promise<string> {
  const [row] = await db('creator_sign_in_tokens')
    .insert({
      creator_id: t.creatorId,
      token_hash: t.tokenHash,
      expires_at: db.raw('now() + make_interval(secs => ?)', [t.ttlSeconds]),
    })
    .returning<{ id: string }[]>('id');
  return row!.id;
}

const live = (db: Knex | Knex.Transaction, tokenHash: string) =>
  db('creator_sign_in_tokens').where('token_hash', tokenHash).whereNull('used_at').andWhere('expires_at', '>', db.fn.now());

/** Whether the link is still usable (the confirm page shows its button only then); spends nothing. */
export async function isSignInTokenLive(db: Knex, tokenHash: string): Promise<boolean> {
  return (await live(db, tokenHash).first('id')) !== undefined;
}

/**
 * Spends the link and opens a session for its creator, in one transaction: the creator's address counts as verified
 * from its first sign-in. Undefined when the link is unknown, used or expired.
 */
export async function spendSignInToken(
  db: Knex,
  tokenHash: string,
  session: { tokenHash: string; ip: string | null; userAgent: string | null; ttlSeconds: number },
): Promise<{ creatorId: string } | undefined> {
  return db.transaction(async (trx) => {
    const [spent] = await live(trx, tokenHash).update({ used_at: trx.fn.now() }).returning<{ creator_id: string }[]>('creator_id');
    if (!spent) return undefined;
    await trx('creators').where('id', spent.creator_id).whereNull('email_verified_at').update({ email_verified_at: trx.fn.now() });
    await trx('creator_sessions').insert({
      creator_id: spent.creator_id,
      token_hash: session.tokenHash,
      ip: session.ip,
      user_agent: session.userAgent?.slice(0, 500) ?? null,
      expires_at: trx.raw('now() + make_interval(secs => ?)', [session.ttlSeconds]),
    });
    return { creatorId: spent.creator_id };
  });
}

export async function findActiveCreatorSessionByHash(db: Knex, hash: string): Promise<{ id: string; creatorId: string } | undefined> {
  const row = await db('creator_sessions')
    .where('token_hash', hash)
    .whereNull('revoked_at')
    .andWhere('expires_at', '>', db.fn.now())
    .first<{ id: string; creator_id: string } | undefined>('id', 'creator_id');
  return row && { id: row.id, creatorId: row.creator_id };
}

export async function revokeCreatorSessionByHash(db: Knex, hash: string): Promise<void> {
  await db('creator_sessions').where('token_hash', hash).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
