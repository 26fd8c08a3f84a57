// Activities about the service itself.
import type { Knex } from 'knex';
import os from 'node:os';

export function createSystemActivities({ db }: { db: Knex }) {
  return {
    async checkDatabase(): Promise<{ latestMigration: string | null; workerIdentity: string }> {
      const row = await db('knex_migrations').orderBy('id', 'desc').first<{ name: string } | undefined>('name');
      return { latestMigration: row?.name ?? null, workerIdentity: `${process.pid}@${os.hostname()}` };
    },
  };
}
