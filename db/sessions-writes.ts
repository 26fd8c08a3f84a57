// Writes of dashboard sessions: opening one and revoking it by the digest of its token (reads stay in db/sessions.ts).
import type { Knex } from 'knex';

export async function createSession(
  db: Knex,
  s: { userId: string; tokenHash: string; ip: string | null; userAgent: string | null; expiresAt: Date },
): Promise<string> {
  const [row] = await db('sessions')
    .insert({
      user_id: s.userId,
      token_hash: s.tokenHash,
      ip: s.ip,
      user_agent: s.userAgent?.slice(0, 500) ?? null,
      expires_at: s.expiresAt,
    })
    .returning<{ id: string }[]>('id');
  return row!.id;
}

export async function revokeSessionByHash(db: Knex, hash: string): Promise<void> {
  await db('sessions').where('token_hash', hash).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
