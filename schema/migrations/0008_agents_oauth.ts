import type { Knex } from 'knex';

// Agent principals (agent keys and OAuth 2.1 grants), the generic oidc-provider adapter store, the audit log
// of what principals did, and request-level idempotency for agent writes.

// The contract's scope list; a key or grant can never carry anything else (hard-denied powers are not scopes).
const SCOPES_CHECK = (column: string): string =>
  `${column} <@ array['apps:read', 'apps:write', 'campaigns:read', 'campaigns:write', 'analytics:read',
    'creators:read', 'creators:write', 'assets:read', 'assets:write', 'billing:read', 'integration:verify']::text[]`;

export async function up(knex: Knex): Promise<void> {
  // One organization per key: a key is created from an org's connect-agent page.
  await knex.schema.createTable('agent_keys', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('akey')"));
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // The key (it_mcp_...) is shown once; sha256 for lookup, a short prefix so humans can tell keys apart.
    t.text('key_hash').notNullable().unique({ indexName: 'agent_keys_key_hash_uq' });
    t.text('key_prefix').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.text('created_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['org_id'], 'agent_keys_org_idx');
    t.check(SCOPES_CHECK('scopes'), [], 'agent_keys_scopes_check');
  });

  // Dynamically registered OAuth clients (RFC 7591); metadata is the registration document as stored by the
  // OAuth server.
  await knex.schema.createTable('oauth_clients', (t) => {
    t.text('client_id').primary();
    t.jsonb('metadata').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // What a user consented to: which organizations and scopes a client may use. Revoking sets revoked_at, which
  // stops refresh immediately; access tokens die on their own within the hour.
  await knex.schema.createTable('oauth_grants', (t) => {
    // Accepts the OAuth server's own grant id; the default only serves grants created outside it.
    t.text('id').primary().defaultTo(knex.raw("svc_id('ogr')"));
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable().references('oauth_clients.client_id').onDelete('CASCADE');
    // No FK is possible on an array; the auth guard intersects it with the user's live memberships.
    t.specificType('org_ids', 'text[]').notNullable().defaultTo(knex.raw("'{}'::text[]"));
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['user_id'], 'oauth_grants_user_idx');
    t.index(['client_id'], 'oauth_grants_client_idx');
    t.check(SCOPES_CHECK('scopes'), [], 'oauth_grants_scopes_check');
  });

  // Generic oidc-provider adapter storage: one table for every model (Session, AccessToken,
  // AuthorizationCode, RefreshToken, Interaction, ...), keyed like the adapter API is.
  await knex.schema.createTable('oauth_store', (t) => {
    t.text('model').notNullable();
    t.text('id').notNullable();
    t.jsonb('payload').notNullable();
    t.text('grant_id').nullable();
    t.text('user_code').nullable();
    t.text('uid').nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('consumed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['model', 'id']);
    // revokeByGrantId, findByUid and findByUserCode are the adapter's secondary lookups.
    t.index(['grant_id'], 'oauth_store_grant_idx');
    t.index(['uid'], 'oauth_store_uid_idx');
    t.index(['user_code'], 'oauth_store_user_code_idx');
    t.index(['expires_at'], 'oauth_store_expires_idx');
  });

  // No foreign keys on purpose: the audit trail must outlive the rows (and orgs) it talks about.
  await knex.schema.createTable('audit_log', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('aud')"));
    t.text('org_id').nullable();
    t.text('actor_type').notNullable().checkIn(['agent_key', 'oauth', 'user', 'system'], 'audit_log_actor_type_check');
    t.text('actor_id').nullable();
    t.text('action').notNullable();
    t.text('target_type').nullable();
    t.text('target_id').nullable();
    t.jsonb('details').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
    t.text('request_id').nullable();
    t.text('ip').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['target_type', 'target_id'], 'audit_log_target_idx');
  });
  await knex.raw('create index audit_log_org_created_idx on audit_log (org_id, created_at desc)');

  // Idempotency-Key support for agent writes (create org, provision, invite, create campaign ...): a retried
  // request with the same key replays the stored answer instead of creating a second resource. status_code is
  // null while the first request is still running.
  await knex.schema.createTable('api_idempotency_keys', (t) => {
    t.text('principal').notNullable();
    t.text('idempotency_key').notNullable();
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status_code').nullable();
    t.jsonb('response').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.primary(['principal', 'idempotency_key']);
    t.index(['created_at'], 'api_idempotency_keys_created_idx');
  });

  for (const table of ['oauth_clients', 'oauth_grants']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_idempotency_keys');
  await knex.schema.dropTable('audit_log');
  await knex.schema.dropTable('oauth_store');
  await knex.schema.dropTable('oauth_grants');
  await knex.schema.dropTable('oauth_clients');
  await knex.schema.dropTable('agent_keys');
}
