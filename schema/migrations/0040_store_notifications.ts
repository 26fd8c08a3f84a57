import type { Knex } from 'knex';

// Store server notifications (docs/store-direct.md "Server notifications"):
// * store_notification_states: per app and source ('app_store_notification', 'play_rtdn') when the last
//   notification was taken in, when a TEST notification was requested and arrived, and how far the store's
//   notification history was read (the hourly catch-up). One row per (app, source); validation-status reads it.
// * app_account_token(app_user_id): the iOS appAccountToken the SDK derives from a user id (packages/sdk/src/ids.ts
//   accountToken: SHA-256 of the UTF-8 bytes, the first 16 laid out as a UUID with version nibble 5 and the RFC 4122
//   variant), so a notified purchase finds its user by index. Declared immutable: the UTF-8 encoding of a text is
//   fixed for a database (test/integration/apple-notifications.test.ts pins it equal to the SDK's).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_notification_states', (t) => {
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('source').notNullable();
    t.timestamp('last_received_at', { useTz: true }).nullable();
    t.timestamp('test_requested_at', { useTz: true }).nullable();
    t.timestamp('test_received_at', { useTz: true }).nullable();
    t.timestamp('history_synced_until', { useTz: true }).nullable();
    t.text('history_error').nullable();
    t.primary(['app_id', 'source']);
  });
  await knex.raw(`
    create function app_account_token(app_user_id text) returns uuid language sql immutable strict parallel safe as $$
      select (substr(h, 1, 12) || '5' || substr(h, 14, 3)
        || substr('89ab', (('x' || substr(h, 17, 1))::bit(4)::int & 3) + 1, 1) || substr(h, 18, 15))::uuid
      from (select encode(sha256(convert_to(app_user_id, 'UTF8')), 'hex') as h) d
    $$`);
  await knex.raw('create index user_attributions_account_token_idx on user_attributions (app_id, app_account_token(app_user_id))');
  await knex.raw('create index identifies_account_token_idx on identifies (app_id, app_account_token(app_user_id))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists identifies_account_token_idx');
  await knex.raw('drop index if exists user_attributions_account_token_idx');
  await knex.raw('drop function if exists app_account_token(text)');
  await knex.schema.dropTable('store_notification_states');
}
