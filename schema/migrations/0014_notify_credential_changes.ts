import type { Knex } from 'knex';

// The webhook routes cache each app's webhook-secret digest: a regenerated secret (or any other credential
// rotation) must reach every API process at once, like the columns 0010 already announces.
const BEFORE = ['name', 'attribution_window_hours', 'ios_validation_provider', 'android_validation_provider'];
const AFTER = [...BEFORE, 'webhook_secret_hash', 'purchase_api_key_hash', 'sdk_key_hash'];

async function recreate(knex: Knex, columns: string[]): Promise<void> {
  const cols = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
  await knex.raw('drop trigger apps_notify_app_updated on apps');
  await knex.raw(`create trigger apps_notify_app_updated after update on apps
    for each row when ((${cols('old')}) is distinct from (${cols('new')}))
    execute function svc_notify_app_changed()`);
}

export async function up(knex: Knex): Promise<void> {
  await recreate(knex, AFTER);
}

export async function down(knex: Knex): Promise<void> {
  await recreate(knex, BEFORE);
}
