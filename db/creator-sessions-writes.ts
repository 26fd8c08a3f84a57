// Writes of creator-portal sign-in (reads stay in db/creator-sessions.ts): issuing a mailed link, spending it (which
// opens the session and verifies the address in one statement, so two confirms at the same moment open one session),
// revoking a session. Only digests of tokens reach SQL.
import type { Knex } from 'knex';
import { liveSignInTokens } from './creator-sessions.js';

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
    const [spent] = await liveSignInTokens(trx, tokenHash)
      .update({ used_at: trx.fn.now() })
      .returning<{ creator_id: string }[]>('creator_id');
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

export async function revokeCreatorSessionByHash(db: Knex, hash: string): Promise<void> {
  await db('creator_sessions').where('token_hash', hash).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
