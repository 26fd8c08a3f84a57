// What the database's schema is at: knex's own bookkeeping of applied migrations.
import type { Knex } from 'knex';

export async function latestMigration(db: Knex): Promise<string | null> {
  const row = await db('knex_migrations').orderBy('id', 'desc').first<{ name: string } | undefined>('name');
  return row?.name ?? null;
}
