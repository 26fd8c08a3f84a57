import type { Knex } from 'knex';

// Marketing assets, the transactional email outbox and the single-use record of signed dashboard links.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assets', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('ast')"));
    t.text('app_id').notNullable();
    t.text('org_id').notNullable();
    t.text('type').notNullable();
    t.text('category').nullable();
    t.text('title').nullable();
    t.text('description').nullable();
    t.text('url').nullable();
    t.text('storage_key').nullable();
    t.text('mime_type').nullable();
    t.bigInteger('size_bytes').nullable();
    t.boolean('featured').notNullable().defaultTo(false);
    t.text('uploaded_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['app_id', 'org_id'], 'assets_app_org_fk').references(['id', 'org_id']).inTable('apps').onDelete('CASCADE');
    // Finalising the same upload twice (browser retry) must yield one asset.
    t.unique(['app_id', 'storage_key'], {
      indexName: 'assets_app_storage_key_uq',
      predicate: knex.whereNotNull('storage_key'),
    });
    t.index(['app_id', 'type', 'category'], 'assets_app_type_category_idx');
    t.check('url is not null or storage_key is not null', [], 'assets_location_check');
    t.check('size_bytes is null or size_bytes >= 0', [], 'assets_size_check');
  });

  // Emails are written in the same transaction as their cause (e.g. the invitation) and sent afterwards by a
  // worker, so a crash can neither lose an email nor send one for a rolled-back invitation.
  await knex.schema.createTable('email_outbox', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('obx')"));
    // Nullable: account emails (sign-in, password reset) belong to no organization.
    t.text('org_id').nullable().references('organizations.id').onDelete('CASCADE');
    t.text('to_address').notNullable();
    t.text('subject').notNullable();
    t.text('body_text').notNullable();
    t.text('body_html').nullable();
    t.text('template').nullable();
    t.jsonb('template_data').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
    t.text('status').notNullable().defaultTo('queued').checkIn(['queued', 'sent', 'failed'], 'email_outbox_status_check');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true }).nullable();
    // e.g. "invite:inv_...": the cause's retry cannot queue the same email twice.
    t.text('dedup_key').notNullable().unique({ indexName: 'email_outbox_dedup_uq' });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Daily email budget = emails queued by the org today.
    t.index(['org_id', 'created_at'], 'email_outbox_org_created_idx');
    t.index(['next_attempt_at'], 'email_outbox_due_idx', { predicate: knex.whereRaw("status = 'queued'") });
    t.check('attempts >= 0', [], 'email_outbox_attempts_check');
  });

  // Signed links (top-up, credential upload, asset upload) are stateless tokens; recording the nonce on first
  // use is what makes them single-use. expires_at lets old nonces be purged once the link could not verify anyway.
  await knex.schema.createTable('signed_link_uses', (t) => {
    t.text('nonce').primary();
    t.text('purpose').notNullable();
    t.text('org_id').nullable();
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.index(['expires_at'], 'signed_link_uses_expires_idx');
  });

  for (const table of ['assets', 'email_outbox']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signed_link_uses');
  await knex.schema.dropTable('email_outbox');
  await knex.schema.dropTable('assets');
}
