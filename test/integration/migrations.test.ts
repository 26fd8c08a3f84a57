// The schema is only ever changed by migrations, and every migration can be undone.
import test from 'ava';
import { readdirSync } from 'node:fs';
import { MIGRATIONS_DIR, migrateLatest, migrationConfig } from '../../runtime/db.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let empty: TestDatabase;
test.before(async () => {
  empty = await createTestDatabase({ fromTemplate: false });
});
test.after.always(async () => {
  await empty?.drop();
});

const tables = async (db: TestDatabase['db']) => (await db('pg_tables').where('schemaname', 'public').pluck<string[]>('tablename')).sort();
const functions = async (db: TestDatabase['db']) =>
  db('pg_proc as p').join('pg_namespace as n', 'n.oid', 'p.pronamespace').where('n.nspname', 'public').pluck<string[]>('p.proname');

test.serial('all migrations apply on an empty database and create the whole domain', async (t) => {
  const applied = await migrateLatest(empty.db);
  t.is(applied.length, readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts')).length);
  const names = await tables(empty.db);
  for (const table of [
    'organizations',
    'users',
    'sessions',
    'memberships',
    'apps',
    'store_credentials',
    'campaigns',
    'bonus_rules',
    'creators',
    'creator_codes',
    'invitations',
    'clicks',
    'installs',
    'identifies',
    'user_attributions',
    'sdk_events',
    'free_access_codes',
    'free_access_grants',
    'free_access_redemptions',
    'purchase_events',
    'conversions',
    'commissions',
    'wallet_ledger',
    'bonus_awards',
    'assets',
    'agent_keys',
    'oauth_grants',
    'oauth_store',
    'fx_rates',
    'rejected_webhooks',
    'audit_log',
    'email_outbox',
    'purchase_inbox',
    'raw_intake',
  ])
    t.true(names.includes(table), `missing table ${table}`);
});

test.serial('a second run applies nothing', async (t) => {
  t.deepEqual(await migrateLatest(empty.db), []);
});

test.serial('rolling everything back leaves only knex bookkeeping, and it applies again', async (t) => {
  await empty.db.migrate.rollback(migrationConfig, true);
  t.deepEqual(await tables(empty.db), ['knex_migrations', 'knex_migrations_lock']);
  t.deepEqual(await functions(empty.db), []);
  const again = await migrateLatest(empty.db);
  t.true(again.length > 0);
});

test.serial('money is bigint micro-units and retried writes hit unique keys', async (t) => {
  const type = await empty
    .db('information_schema.columns')
    .where({ table_name: 'wallet_ledger', column_name: 'balance_delta_micros' })
    .first('data_type');
  t.is(type.data_type, 'bigint');
  const uniques = await empty.db.raw<{ rows: { indexdef: string }[] }>(
    "select indexdef from pg_indexes where schemaname = 'public' and indexdef ilike 'create unique%'",
  );
  const defs = uniques.rows.map((r) => r.indexdef).join('\n');
  t.regex(defs, /wallet_ledger.*\(idempotency_key\)/);
  t.regex(defs, /purchase_events.*\(app_id, event_type, transaction_id, event_timestamp_ms\)/);
  t.regex(defs, /installs.*\(app_id, device_id\)/);
  t.regex(defs, /conversions.*\(app_id, conversion_key\)/);
  // One earn per event; one reversal per event and earn (a partial refund may take back two earns, migration 0046).
  t.regex(defs, /commissions_event_earn_uq ON public\.commissions .*\(purchase_event_id\) WHERE \(kind = 'earn'::text\)/);
  t.regex(
    defs,
    /commissions_event_reversal_uq ON public\.commissions .*\(purchase_event_id, reverses_commission_id\) WHERE \(kind = 'reversal'::text\)/, // long-line: one regular expression
  );
  t.regex(defs, /raw_intake.*\(app_id, source, external_id\)/);
});
