import type { Knex } from 'knex';

// Campaigns, their milestone bonus rules, creators (influencers), creator codes (a creator's membership in a
// campaign) and invitations into invite-only campaigns.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaigns', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('cmp')"));
    t.text('app_id').notNullable();
    t.text('org_id').notNullable();
    t.text('name').notNullable();
    t.text('description').nullable();
    t.text('campaign_type')
      .notNullable()
      .defaultTo('public')
      .checkIn(['public', 'private', 'invite_only', 'FREE_ACCESS'], 'campaigns_type_check');
    t.text('status').notNullable().defaultTo('draft').checkIn(['draft', 'active', 'paused', 'archived'], 'campaigns_status_check');
    t.decimal('commission_percentage', 6, 3).notNullable().defaultTo(0);
    // locale -> {name, description, source_hash, updated_at}; stale when source_hash no longer matches.
    t.jsonb('i18n').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
    t.timestamp('activated_at', { useTz: true }).nullable();
    t.timestamp('paused_at', { useTz: true }).nullable();
    t.timestamp('archived_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['app_id', 'org_id'], 'campaigns_app_org_fk').references(['id', 'org_id']).inTable('apps').onDelete('CASCADE');
    // Composite-FK targets so children carrying app_id/org_id stay inside the campaign's tenant.
    t.unique(['id', 'app_id'], { indexName: 'campaigns_id_app_uq' });
    t.unique(['id', 'org_id'], { indexName: 'campaigns_id_org_uq' });
    // init and /sdk/campaigns list the active campaigns of one app on every app start.
    t.index(['app_id', 'status'], 'campaigns_app_status_idx');
    t.index(['org_id'], 'campaigns_org_idx');
    t.check('commission_percentage between 0 and 100', [], 'campaigns_commission_percentage_check');
  });

  await knex.schema.createTable('bonus_rules', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('bnr')"));
    t.text('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('threshold_conversions').notNullable();
    t.bigInteger('bonus_micros').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // A retried campaign update must not add the same milestone twice.
    t.unique(['campaign_id', 'threshold_conversions'], {
      indexName: 'bonus_rules_campaign_threshold_active_uq',
      predicate: knex.whereRaw('active'),
    });
    t.check('threshold_conversions > 0', [], 'bonus_rules_threshold_check');
    t.check('bonus_micros >= 0', [], 'bonus_rules_bonus_check');
  });

  // Creators are global people, not tenant rows: one creator can join campaigns of many organizations.
  await knex.schema.createTable('creators', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('crt')"));
    t.text('name').notNullable();
    t.text('email').nullable();
    t.text('social_handle').nullable();
    t.integer('follower_count').nullable();
    t.text('avatar_url').nullable();
    t.text('language').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('follower_count is null or follower_count >= 0', [], 'creators_follower_count_check');
  });
  // Joining twice with "Ann@x.io" and "ann@x.io" must land on the same creator.
  await knex.raw('create unique index creators_email_lower_uq on creators (lower(email)) where email is not null');

  await knex.schema.createTable('creator_codes', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('cc')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('campaign_id').notNullable();
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'removed'], 'creator_codes_status_check');
    t.text('source').notNullable().defaultTo('join').checkIn(['join', 'invite', 'seed'], 'creator_codes_source_check');
    t.timestamp('joined_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('removed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['campaign_id', 'app_id'], 'creator_codes_campaign_app_fk')
      .references(['id', 'app_id'])
      .inTable('campaigns')
      .onDelete('CASCADE');
    // Removed codes keep their row and their uniqueness: old clicks and conversions must never become
    // ambiguous because somebody else picked the same code later.
    t.unique(['app_id', 'code'], { indexName: 'creator_codes_app_code_uq' });
    t.unique(['campaign_id', 'creator_id'], { indexName: 'creator_codes_campaign_creator_uq' });
    t.index(['creator_id'], 'creator_codes_creator_idx');
    // Same rule as the API's cleanup (uppercase, A-Z 0-9 _ -, 4 to 20), so bad codes cannot sneak in via SQL.
    t.check("code ~ '^[A-Z0-9_-]{4,20}$'", [], 'creator_codes_code_check');
  });

  await knex.schema.createTable('invitations', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('inv')"));
    t.text('campaign_id').notNullable();
    t.text('org_id').notNullable();
    t.text('email').notNullable();
    t.text('name').nullable();
    t.text('message').nullable();
    t.text('lang').nullable();
    // The accept link carries the token; only its sha256 is stored.
    t.text('token_hash').notNullable().unique({ indexName: 'invitations_token_hash_uq' });
    t.text('status')
      .notNullable()
      .defaultTo('PENDING')
      .checkIn(['PENDING', 'ACCEPTED', 'WITHDRAWN', 'EXPIRED'], 'invitations_status_check');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('withdrawn_at', { useTz: true }).nullable();
    t.timestamp('accepted_at', { useTz: true }).nullable();
    t.text('creator_id').nullable().references('creators.id').onDelete('SET NULL');
    t.text('invited_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['campaign_id', 'org_id'], 'invitations_campaign_org_fk')
      .references(['id', 'org_id'])
      .inTable('campaigns')
      .onDelete('CASCADE');
    // Invite capacity is derived from invitations: pending ones hold marketplace slots, today's ones spend
    // the daily email budget.
    t.index(['org_id', 'created_at'], 'invitations_org_created_idx');
    t.index(['org_id'], 'invitations_org_pending_idx', { predicate: knex.whereRaw("status = 'PENDING'") });
    t.index(['campaign_id', 'status'], 'invitations_campaign_status_idx');
  });
  // A retried (or batch-duplicated) invite must not send a second email or take a second slot.
  await knex.raw(
    "create unique index invitations_campaign_email_pending_uq on invitations (campaign_id, lower(email)) where status = 'PENDING'",
  );

  for (const table of ['campaigns', 'bonus_rules', 'creators', 'creator_codes', 'invitations']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invitations');
  await knex.schema.dropTable('creator_codes');
  await knex.schema.dropTable('creators');
  await knex.schema.dropTable('bonus_rules');
  await knex.schema.dropTable('campaigns');
}
