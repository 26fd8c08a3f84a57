// Writes to dashboard users: last sign-in, email verification, a new password (reads stay in db/users.ts).
import type { Knex } from 'knex';

export async function recordLogin(db: Knex, userId: string): Promise<void> {
  await db('users').where('id', userId).update({ last_login_at: db.fn.now() });
}

export async function markEmailVerified(db: Knex, userId: string): Promise<void> {
  await db('users').where('id', userId).whereNull('email_verified_at').update({ email_verified_at: db.fn.now() });
}

/** A new password ends every session of the user (a reset is how a stolen session is shut out). */
export async function setPassword(db: Knex, userId: string, passwordHash: string): Promise<void> {
  await db('users').where('id', userId).update({ password_hash: passwordHash });
  await db('sessions').where('user_id', userId).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
