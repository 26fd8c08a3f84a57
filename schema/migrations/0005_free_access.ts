import type { Knex } from 'knex';

// Free-access (comp) codes: the service itself grants access, so codes, per-user grants and the redemption
// log live here; mirroring to the subscription provider is a best-effort extra recorded on the grant.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('free_access_codes', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('fac')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.text('name').nullable();
    t.text('entitlement').notNullable().defaultTo('premium');
    // Both null = open-ended access; otherwise access runs for years + days from the grant.
    t.integer('access_duration_years').nullable();
    t.integer('access_duration_days').nullable();
    // When the code itself stops working (and, per the spec, access of all its holders ends).
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.integer('seat_limit').nullable(); // null = unlimited
    // Claimed with "set seats_used = seats_used + 1 where ... seats_used < seat_limit": the CHECK below makes
    // overselling the last seat impossible even if that predicate is forgotten.
    t.integer('seats_used').notNullable().defaultTo(0);
    t.boolean('blocked').notNullable().defaultTo(false);
    t.timestamp('blocked_at', { useTz: true }).nullable();
    t.jsonb('custom_data').nullable();
    t.text('created_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['app_id', 'code'], { indexName: 'free_access_codes_app_code_uq' });
    t.check("code ~ '^[A-Z0-9_-]{4,20}$'", [], 'free_access_codes_code_check');
    t.check('access_duration_years is null or access_duration_years >= 0', [], 'free_access_codes_years_check');
    t.check('access_duration_days is null or access_duration_days >= 0', [], 'free_access_codes_days_check');
    t.check('seat_limit is null or seat_limit >= 0', [], 'free_access_codes_seat_limit_check');
    t.check('seats_used >= 0 and (seat_limit is null or seats_used <= seat_limit)', [], 'free_access_codes_seats_used_check');
  });

  await knex.schema.createTable('free_access_grants', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('fag')"));
    t.text('free_code_id').notNullable().references('free_access_codes.id').onDelete('CASCADE');
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('app_user_id').notNullable();
    t.timestamp('granted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('access_expires_at', { useTz: true }).nullable(); // null = open-ended
    t.timestamp('last_redeemed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('redemption_count').notNullable().defaultTo(1);
    // Last mirror attempt to the subscription provider: {attempted, ok, error}.
    t.jsonb('rc_grant').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Re-redeeming re-grants without taking another seat: the grant is an upsert on this key.
    t.unique(['free_code_id', 'app_user_id'], { indexName: 'free_access_grants_code_user_uq' });
    // /sdk/access runs on every premium gate check.
    t.index(['app_id', 'app_user_id'], 'free_access_grants_app_user_idx');
    t.check("app_user_id <> ''", [], 'free_access_grants_app_user_id_check');
    t.check('redemption_count >= 1', [], 'free_access_grants_redemption_count_check');
  });

  // Append-only audit of each redemption call (seat accounting is on the code, access on the grant).
  await knex.schema.createTable('free_access_redemptions', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('frd')"));
    t.text('grant_id').notNullable().references('free_access_grants.id').onDelete('CASCADE');
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('app_user_id').notNullable();
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    t.boolean('already_granted').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['grant_id', 'created_at'], 'free_access_redemptions_grant_idx');
    t.index(['app_id', 'created_at'], 'free_access_redemptions_app_created_idx');
  });

  for (const table of ['free_access_codes', 'free_access_grants']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('free_access_redemptions');
  await knex.schema.dropTable('free_access_grants');
  await knex.schema.dropTable('free_access_codes');
}
