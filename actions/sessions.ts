// Dashboard sessions (api/dashboard/account/session.tsx checks the password and sets the cookies): opening a session records
// the sign-in; closing one revokes it by the digest of its token, which never reaches SQL itself.
import type { Knex } from 'knex';
import { createSession, revokeSessionByHash } from '../db/sessions-writes.js';
import { recordLogin } from '../db/users-writes.js';
import { hashToken } from '../lib/credentials.js';

export async function openSession(
  deps: { db: Knex },
  input: { userId: string; token: string; ip: string | null; userAgent: string | null; expiresAt: Date },
): Promise<void> {
  await createSession(deps.db, {
    userId: input.userId,
    tokenHash: hashToken(input.token),
    ip: input.ip,
    userAgent: input.userAgent,
    expiresAt: input.expiresAt,
  });
  await recordLogin(deps.db, input.userId);
}

export async function closeSession(deps: { db: Knex }, input: { token: string }): Promise<void> {
  await revokeSessionByHash(deps.db, hashToken(input.token));
}
