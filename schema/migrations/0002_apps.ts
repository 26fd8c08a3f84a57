import type { Knex } from 'knex';

// Apps (the tenant's product, holder of every client/webhook credential) and the encrypted store credentials
// used by the store-direct validation path.

export async function up(knex: Knex): Promise<void> {
  const emptyJson = knex.raw("'{}'::jsonb");

  await knex.schema.createTable('apps', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('app')"));
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // Globally unique and the first path segment of referral URLs, so it is stored lowercase and URL-safe.
    t.text('slug').notNullable().unique({ indexName: 'apps_slug_uq' });
    t.text('description').nullable();
    t.text('tagline').nullable();
    t.jsonb('name_i18n').notNullable().defaultTo(emptyJson);
    t.jsonb('description_i18n').notNullable().defaultTo(emptyJson);
    t.jsonb('tagline_i18n').notNullable().defaultTo(emptyJson);
    // locale -> {source_hash, updated_at}: a translation is stale when the source text's hash moved on.
    t.jsonb('i18n_meta').notNullable().defaultTo(emptyJson);
    t.text('support_email').nullable();
    t.text('icon_url').nullable();
    t.jsonb('creator_code_settings').notNullable().defaultTo(emptyJson);

    // The SDK key is public by contract (it ships inside the app and is shown on the setup page), so it is
    // kept in clear; lookups still go through the hash so the hot path compares fixed-length values.
    t.text('sdk_key').notNullable().unique({ indexName: 'apps_sdk_key_uq' });
    t.text('sdk_key_hash').notNullable().unique({ indexName: 'apps_sdk_key_hash_uq' });
    // Webhook secret and purchase API key are shown once; only their sha256 is kept.
    t.text('webhook_secret_hash').notNullable().unique({ indexName: 'apps_webhook_secret_hash_uq' });
    t.text('webhook_secret_hint').nullable();
    t.timestamp('webhook_secret_rotated_at', { useTz: true }).nullable();
    t.text('purchase_api_key_hash').nullable().unique({ indexName: 'apps_purchase_api_key_hash_uq' });
    t.timestamp('purchase_api_key_rotated_at', { useTz: true }).nullable();

    // null / 'subprovider' = subscription-provider path; the store verifier's name = store-direct.
    // Exactly one path per platform, which this single column enforces by construction.
    t.text('ios_validation_provider').nullable();
    t.text('android_validation_provider').nullable();
    t.integer('attribution_window_hours').notNullable().defaultTo(72);

    t.text('ios_store_url').nullable();
    t.text('android_store_url').nullable();
    t.text('web_url').nullable();
    t.text('ios_bundle_id').nullable();
    t.text('android_package_name').nullable();
    t.text('app_store_id').nullable();
    // Non-secret Apple settings (issuer id, key id, environment); the private key lives in store_credentials.
    t.jsonb('apple_meta').notNullable().defaultTo(emptyJson);

    // Integration checklist evidence, denormalised so integration-status needs no scans.
    t.timestamp('sdk_initialized_at', { useTz: true }).nullable();
    t.text('sdk_name').nullable();
    t.text('sdk_version').nullable();
    t.text('sdk_platform').nullable();
    t.jsonb('sdk_init_meta').notNullable().defaultTo(emptyJson);
    t.timestamp('webhook_connected_at', { useTz: true }).nullable();

    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());

    // Target of composite foreign keys: rows that carry both app_id and org_id cannot point across tenants.
    t.unique(['id', 'org_id'], { indexName: 'apps_id_org_uq' });
    t.index(['org_id'], 'apps_org_idx');

    t.check("slug ~ '^[a-z0-9][a-z0-9_-]{0,62}$'", [], 'apps_slug_check');
    t.check("sdk_key like 'it\\_%' and sdk_key not like 'it\\_mcp\\_%'", [], 'apps_sdk_key_check');
    t.check("sdk_key_hash ~ '^[0-9a-f]{64}$'", [], 'apps_sdk_key_hash_check');
    t.check("webhook_secret_hash ~ '^[0-9a-f]{64}$'", [], 'apps_webhook_secret_hash_check');
    t.check("purchase_api_key_hash is null or purchase_api_key_hash ~ '^[0-9a-f]{64}$'", [], 'apps_purchase_api_key_hash_check');
    t.check(
      "ios_validation_provider is null or ios_validation_provider in ('subprovider', 'app_store')",
      [],
      'apps_ios_validation_provider_check',
    );
    t.check(
      "android_validation_provider is null or android_validation_provider in ('subprovider', 'google_play')",
      [],
      'apps_android_validation_provider_check',
    );
    t.check('attribution_window_hours between 1 and 8760', [], 'apps_attribution_window_check');
    t.check("sdk_platform is null or sdk_platform in ('ios', 'android', 'web')", [], 'apps_sdk_platform_check');
  });

  // One row per (app, platform): re-uploading replaces the credential instead of piling up versions.
  // 'subprovider' holds the subscription provider's secret REST key (webhook autowire, free-access mirror).
  await knex.schema.createTable('store_credentials', (t) => {
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('platform').notNullable().checkIn(['ios', 'android', 'subprovider'], 'store_credentials_platform_check');
    // AES-256-GCM under SVC_MASTER_KEY; enc_key_version lets the master key rotate without a flag day.
    t.binary('ciphertext').notNullable();
    t.binary('iv').notNullable();
    t.binary('auth_tag').notNullable();
    t.integer('enc_key_version').notNullable().defaultTo(1);
    t.text('key_id').nullable();
    t.text('issuer_id').nullable();
    t.text('bundle_id').nullable();
    t.text('package_name').nullable();
    t.text('environment').nullable();
    t.text('check_status')
      .notNullable()
      .defaultTo('unchecked')
      .checkIn(['unchecked', 'ok', 'failed', 'retryable'], 'store_credentials_check_status_check');
    t.integer('check_attempts').notNullable().defaultTo(0);
    t.timestamp('checked_at', { useTz: true }).nullable();
    t.text('last_error').nullable();
    t.text('uploaded_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['app_id', 'platform']);
    t.check(
      "environment is null or environment in ('PRODUCTION', 'SANDBOX', 'XCODE', 'LOCAL_TESTING')",
      [],
      'store_credentials_environment_check',
    );
  });

  for (const table of ['apps', 'store_credentials']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('store_credentials');
  await knex.schema.dropTable('apps');
}
