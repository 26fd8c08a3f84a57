import type { Knex } from 'knex';

// API processes cache what SDKs read on every launch (init snapshot, code look-ups). Any change to a row those
// answers depend on announces its app on the `svc_app_changed` channel, so every process drops that app's cached
// entries at once, whoever made the change (API, worker, migration, psql).

const TABLES = ['campaigns', 'creator_codes', 'creators', 'free_access_codes'] as const;

// init's SDK marker updates apps on every new SDK identity: only columns that cached answers show count as changes.
const APP_COLUMNS = ['name', 'attribution_window_hours', 'ios_validation_provider', 'android_validation_provider'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function svc_notify_app_changed() returns trigger
    language plpgsql
    as $$
    declare
      row_app text;
    begin
      if tg_table_name = 'creators' then
        -- A creator's public details show in validate-code for every app whose campaigns they joined.
        for row_app in select distinct app_id from creator_codes where creator_id = coalesce(new.id, old.id) loop
          perform pg_notify('svc_app_changed', row_app);
        end loop;
        return null;
      end if;
      if tg_table_name = 'apps' then
        perform pg_notify('svc_app_changed', coalesce(new.id, old.id));
        return null;
      end if;
      -- PL/pgSQL resolves record fields per statement, so app tables other than apps are handled apart.
      perform pg_notify('svc_app_changed', coalesce(new.app_id, old.app_id));
      if tg_op = 'UPDATE' then
        if new.app_id is distinct from old.app_id then
          perform pg_notify('svc_app_changed', old.app_id);
        end if;
      end if;
      return null;
    end
    $$
  `);
  for (const table of TABLES) {
    await knex.raw(`create trigger ${table}_notify_app_changed after insert or update or delete on ${table}
      for each row execute function svc_notify_app_changed()`);
  }
  await knex.raw(`create trigger apps_notify_app_changed after insert or delete on apps
    for each row execute function svc_notify_app_changed()`);
  const cols = (row: string) => APP_COLUMNS.map((c) => `${row}.${c}`).join(', ');
  await knex.raw(`create trigger apps_notify_app_updated after update on apps
    for each row when ((${cols('old')}) is distinct from (${cols('new')}))
    execute function svc_notify_app_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger apps_notify_app_updated on apps');
  for (const table of [...TABLES, 'apps']) await knex.raw(`drop trigger ${table}_notify_app_changed on ${table}`);
  await knex.raw('drop function svc_notify_app_changed()');
}
