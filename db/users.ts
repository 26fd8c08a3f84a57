// Dashboard users as sign-in and account pages see them (creation lives with organizations in db/organizations.ts).
import type { Knex } from 'knex';
import type { MembershipRole } from '../schema/types.js';

export interface LoginUser {
  id: string;
  email: string;
  password_hash: string | null;
  name: string | null;
  email_verified_at: Date | null;
}

export async function findUserByEmail(db: Knex, email: string): Promise<LoginUser | undefined> {
  return db('users')
    .whereRaw('lower(email) = lower(?)', [email])
    .first<LoginUser | undefined>('id', 'email', 'password_hash', 'name', 'email_verified_at');
}

export async function findUser(db: Knex, id: string): Promise<{ id: string; email: string; name: string | null } | undefined> {
  return db('users').where('id', id).first<{ id: string; email: string; name: string | null } | undefined>('id', 'email', 'name');
}

/** When the user's account was created (the sign-up), or undefined for an unknown id. */
export async function findSignUpTime(db: Knex, id: string): Promise<Date | undefined> {
  const row = await db('users').where('id', id).first<{ created_at: Date } | undefined>('created_at');
  return row?.created_at;
}

export interface Member {
  user_id: string;
  email: string;
  name: string | null;
  role: MembershipRole;
  created_at: Date;
}

export async function listMembers(db: Knex, orgId: string): Promise<Member[]> {
  return db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.org_id', orgId)
    .orderBy('m.created_at')
    .select<Member[]>('m.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at');
}

export async function roleIn(db: Knex, orgId: string, userId: string): Promise<MembershipRole | undefined> {
  const row = await db('memberships').where({ org_id: orgId, user_id: userId }).first<{ role: MembershipRole } | undefined>('role');
  return row?.role;
}
