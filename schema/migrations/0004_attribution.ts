import type { Knex } from 'knex';

// The client-side funnel: link clicks, installs, identify calls, the per-user attribution they resolve to,
// and custom SDK events. These are the hot write paths answered directly by the API.

const PLATFORM_CHECK = "platform is null or platform in ('ios', 'android', 'web')";

export async function up(knex: Knex): Promise<void> {
  const emptyJson = knex.raw("'{}'::jsonb");

  await knex.schema.createTable('clicks', (t) => {
    // The id doubles as the public click_id carried into the app by links.
    t.text('id').primary().defaultTo(knex.raw("svc_id('clk')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.text('creator_code_id').notNullable().references('creator_codes.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.text('source').notNullable().defaultTo('link').checkIn(['link', 'manual'], 'clicks_source_check');
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    t.text('platform').nullable();
    t.text('os_version').nullable();
    t.text('language').nullable();
    t.text('timezone').nullable();
    t.text('screen').nullable();
    t.text('referrer').nullable();
    t.jsonb('device_hints').notNullable().defaultTo(emptyJson);
    t.timestamp('clicked_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('claimed_at', { useTz: true }).nullable();
    t.text('claimed_install_id').nullable(); // FK added once installs exists (the two point at each other)
    t.check(PLATFORM_CHECK, [], 'clicks_platform_check');
    t.index(['campaign_id', 'clicked_at'], 'clicks_campaign_clicked_idx');
    t.index(['creator_code_id', 'clicked_at'], 'clicks_creator_code_clicked_idx');
  });
  // track-install's IP + device match looks back 72 h from one IP; the partial twin only holds claimable clicks,
  // so the match stays cheap however many old claimed clicks accumulate.
  await knex.raw('create index clicks_app_ip_clicked_idx on clicks (app_id, ip, clicked_at desc)');
  await knex.raw('create index clicks_unclaimed_idx on clicks (app_id, ip, clicked_at desc) where claimed_at is null');

  await knex.schema.createTable('installs', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('ins')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('device_id').nullable();
    t.text('platform').nullable();
    t.text('device_brand').nullable();
    t.text('device_model').nullable();
    t.text('os_version').nullable();
    t.text('app_version').nullable();
    t.text('screen_resolution').nullable();
    t.text('timezone').nullable();
    t.text('language').nullable();
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    t.boolean('attributed').notNullable().defaultTo(false);
    t.text('attribution_method').nullable();
    // unique: a click is claimed by exactly one install, which is what makes a concurrent double claim lose.
    t.text('click_id').nullable().unique({ indexName: 'installs_click_uq' }).references('clicks.id').onDelete('SET NULL');
    t.text('creator_code_id').nullable().references('creator_codes.id').onDelete('SET NULL');
    t.text('campaign_id').nullable().references('campaigns.id').onDelete('SET NULL');
    t.text('referral_code').nullable();
    t.timestamp('attributed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(PLATFORM_CHECK, [], 'installs_platform_check');
    t.check(
      "attribution_method is null or attribution_method in ('link_param', 'ip_device_match', 'manual_code')",
      [],
      'installs_attribution_method_check',
    );
    t.check('not attributed or attribution_method is not null', [], 'installs_attributed_method_check');
    // Installs are counted once per device; installs without a device_id cannot be deduplicated.
    t.unique(['app_id', 'device_id'], {
      indexName: 'installs_app_device_uq',
      predicate: knex.whereNotNull('device_id'),
    });
    t.index(['campaign_id', 'created_at'], 'installs_campaign_created_idx');
    t.index(['creator_code_id', 'created_at'], 'installs_creator_code_created_idx');
  });
  // identify without device_id falls back to "an unambiguous recent install from this IP".
  await knex.raw('create index installs_app_ip_created_idx on installs (app_id, ip, created_at desc)');

  await knex.schema.alterTable('clicks', (t) => {
    t.foreign('claimed_install_id', 'clicks_claimed_install_fk').references('installs.id').onDelete('SET NULL');
  });

  // An append-only log of identify calls (diagnostics, backfill evidence). Retry safety lives elsewhere:
  // the 60 s in-memory dedup and the unique keys of user_attributions.
  await knex.schema.createTable('identifies', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('idf')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('app_user_id').notNullable();
    t.text('install_id').nullable().references('installs.id').onDelete('SET NULL');
    t.text('click_id').nullable().references('clicks.id').onDelete('SET NULL');
    t.text('device_id').nullable();
    t.text('ip').nullable();
    t.jsonb('properties').notNullable().defaultTo(emptyJson);
    t.boolean('attribution_backfilled').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("app_user_id <> ''", [], 'identifies_app_user_id_check');
    t.index(['app_id', 'app_user_id'], 'identifies_app_user_idx');
    t.index(['install_id'], 'identifies_install_idx');
  });

  // Who referred this app user. The row is the answer purchase processing uses when an event carries no code.
  await knex.schema.createTable('user_attributions', (t) => {
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('app_user_id').notNullable();
    // unique: the first identify for a click wins; later users from the same click cannot take it over.
    t.text('click_id').nullable().unique({ indexName: 'user_attributions_click_uq' }).references('clicks.id').onDelete('SET NULL');
    t.text('install_id').nullable().references('installs.id').onDelete('SET NULL');
    t.text('creator_code_id').notNullable().references('creator_codes.id').onDelete('CASCADE');
    t.text('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    t.text('referral_code').notNullable();
    t.text('method')
      .notNullable()
      .checkIn(['link_param', 'ip_device_match', 'manual_code', 'purchase_code'], 'user_attributions_method_check');
    t.timestamp('attributed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Set at the first attributed conversion; from then on the user stays with this creator.
    t.timestamp('converted_at', { useTz: true }).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['app_id', 'app_user_id']);
    t.index(['campaign_id'], 'user_attributions_campaign_idx');
    t.index(['creator_id'], 'user_attributions_creator_idx');
  });

  await knex.schema.createTable('sdk_events', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('sev')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    // The client's event_id, or one the server generated; either way the retry key.
    t.text('event_id').notNullable();
    t.text('event_type').notNullable();
    t.text('app_user_id').notNullable();
    t.jsonb('properties').notNullable().defaultTo(emptyJson);
    t.text('referral_code').nullable();
    t.text('platform').nullable();
    t.text('environment').nullable();
    // trial_started / subscription_purchased / subscription_renewed: one per user and property set, whatever
    // event_id the client sends.
    t.text('singleton_key').nullable();
    // Hash of (type, user, properties, code) for the 60 s identical-event window of events without event_id.
    t.text('content_hash').nullable();
    t.text('ip').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(PLATFORM_CHECK, [], 'sdk_events_platform_check');
    t.check(
      "environment is null or environment in ('PRODUCTION', 'SANDBOX', 'XCODE', 'LOCAL_TESTING')",
      [],
      'sdk_events_environment_check',
    );
    t.unique(['app_id', 'event_id'], { indexName: 'sdk_events_app_event_uq' });
    t.unique(['app_id', 'singleton_key'], {
      indexName: 'sdk_events_app_singleton_uq',
      predicate: knex.whereNotNull('singleton_key'),
    });
    t.index(['app_id', 'app_user_id'], 'sdk_events_app_user_idx');
  });
  await knex.raw('create index sdk_events_app_created_idx on sdk_events (app_id, created_at desc)');
  await knex.raw('create index sdk_events_app_env_created_idx on sdk_events (app_id, environment, created_at desc)');
  await knex.raw(
    'create index sdk_events_content_hash_idx on sdk_events (app_id, content_hash, created_at desc) where content_hash is not null',
  );

  for (const table of ['installs', 'user_attributions']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sdk_events');
  await knex.schema.dropTable('user_attributions');
  await knex.schema.dropTable('identifies');
  await knex.schema.alterTable('clicks', (t) => {
    t.dropForeign('claimed_install_id', 'clicks_claimed_install_fk');
  });
  await knex.schema.dropTable('installs');
  await knex.schema.dropTable('clicks');
}
