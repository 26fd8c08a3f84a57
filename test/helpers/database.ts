// An isolated database per test file, cloned from the migrated template that test/run.ts prepares once per run.
import type { Knex } from 'knex';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createDb, withDatabase } from '../../runtime/db.js';
import { requireTestEnv } from './env.js';

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(adminUrl, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  db: Knex;
  drop(): Promise<void>;
}

export async function createTestDatabase(opts: { fromTemplate?: boolean } = {}): Promise<TestDatabase> {
  const env = requireTestEnv();
  const name = `svc_t_${env.runId}_${randomBytes(5).toString('hex')}`;
  await admin(env.adminDatabaseUrl, (c) =>
    c.query(opts.fromTemplate === false ? `create database "${name}"` : `create database "${name}" template "${env.templateDb}"`),
  );
  const url = withDatabase(env.adminDatabaseUrl, name);
  const db = createDb(url, 5);
  return {
    name,
    url,
    db,
    drop: async () => {
      await db.destroy();
      await admin(env.adminDatabaseUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** Drops every database of one test run (the runner's last step, also after crashed test files). */
export async function dropDatabasesWithPrefix(adminUrl: string, prefix: string): Promise<void> {
  await admin(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
  });
}
