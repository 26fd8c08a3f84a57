// Writes of organizations, dashboard users and memberships (reads stay in db/organizations.ts and db/users.ts).
import type { Knex } from 'knex';

export interface NewUser {
  email: string;
  passwordHash: string | null;
  name?: string | null;
  emailVerified?: boolean;
}

export async function createUser(db: Knex, user: NewUser): Promise<{ id: string; email: string }> {
  const [row] = await db('users')
    .insert({
      email: user.email,
      password_hash: user.passwordHash,
      name: user.name ?? null,
      email_verified_at: user.emailVerified ? db.fn.now() : null,
    })
    .returning<{ id: string; email: string }[]>(['id', 'email']);
  return row!;
}

export async function createOrganization(
  db: Knex,
  org: { name: string; createdByUserId?: string | null },
): Promise<{ id: string; name: string }> {
  const [row] = await db('organizations')
    .insert({ name: org.name, created_by_user_id: org.createdByUserId ?? null })
    .returning<{ id: string; name: string }[]>(['id', 'name']);
  return row!;
}

export async function addMembership(db: Knex, orgId: string, userId: string, role: 'owner' | 'admin' | 'member'): Promise<void> {
  await db('memberships').insert({ org_id: orgId, user_id: userId, role }).onConflict(['org_id', 'user_id']).ignore();
}
