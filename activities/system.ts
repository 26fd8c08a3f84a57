// Activities about the service itself.
import type { Knex } from 'knex';
import os from 'node:os';
import { latestMigration } from '../db/schema-migrations.js';

export function createSystemActivities({ db }: { db: Knex }) {
  return {
    async checkDatabase(): Promise<{ latestMigration: string | null; workerIdentity: string }> {
      return { latestMigration: await latestMigration(db), workerIdentity: `${process.pid}@${os.hostname()}` };
    },
  };
}
