// Dashboard users as sign-in sees them (creation lives with organizations in db/organizations.ts).
import type { Knex } from 'knex';

export interface LoginUser { id: string; email: string; password_hash: string | null; name: string | null }

export async function findUserByEmail(db: Knex, email: string): Promise<LoginUser | undefined> {
  return db('users').whereRaw('lower(email) = lower(?)', [email])
    .first<LoginUser | undefined>('id', 'email', 'password_hash', 'name');
}

export async function findUser(db: Knex, id: string): Promise<{ id: string; email: string; name: string | null } | undefined> {
  return db('users').where('id', id).first<{ id: string; email: string; name: string | null } | undefined>('id', 'email', 'name');
}

export async function recordLogin(db: Knex, userId: string): Promise<void> {
  await db('users').where('id', userId).update({ last_login_at: db.fn.now() });
}
