// knex handles and the migration settings every entry point shares.
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { fileURLToPath } from 'node:url';

// bigint columns (micro-USD money, counts) come back as JS numbers only when they are safe integers; past 2^53 the
// parser throws rather than silently rounding money.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} exceeds the safe integer range`);
  return n;
});

// A SQL date is a calendar day, not an instant: keep it as 'YYYY-MM-DD' instead of local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export const MIGRATIONS_DIR = fileURLToPath(new URL('../schema/migrations', import.meta.url));

export const migrationConfig: Knex.MigratorConfig = {
  directory: MIGRATIONS_DIR,
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

export function createDb(databaseUrl: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, application_name: 'svc' },
    pool: { min: 0, max: poolMax },
    migrations: migrationConfig,
    acquireConnectionTimeout: 10_000,
  });
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

/** A URL for another database on the same server (tests clone a template; the CLI creates the dev database). */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
