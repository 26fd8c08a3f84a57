import type { Knex } from 'knex';

// The purchase pipeline: FX rates, conversions (one per store identity, written only by its entity workflow),
// every inbound purchase event, store-direct proofs and the counters of rejected webhook calls.

const ENVIRONMENTS = "('PRODUCTION', 'SANDBOX', 'XCODE', 'LOCAL_TESTING')";
const METHODS = "('link_param', 'ip_device_match', 'manual_code', 'purchase_code')";

export async function up(knex: Knex): Promise<void> {
  const emptyJson = knex.raw("'{}'::jsonb");

  // Rates are per calendar day so a purchase is always converted at its own date's rate, and re-fetching a
  // day is an upsert on the primary key.
  await knex.schema.createTable('fx_rates', (t) => {
    t.text('currency').notNullable();
    t.date('rate_date').notNullable();
    t.decimal('usd_per_unit', 20, 10).notNullable();
    t.text('source').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['currency', 'rate_date']);
    t.check("currency ~ '^[A-Z]{3}$'", [], 'fx_rates_currency_check');
    t.check('usd_per_unit > 0', [], 'fx_rates_rate_check');
  });

  await knex.schema.createTable('conversions', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('cnv')"));
    t.text('app_id').notNullable();
    t.text('org_id').notNullable();
    // Store identity: iOS original transaction id, Android purchase token or order id, or the provider's
    // transaction id. Also the tail of the workflow id conversion/{app_id}/{conversion_key}.
    t.text('conversion_key').notNullable();
    t.text('kind').notNullable().checkIn(['subscription', 'one_time'], 'conversions_kind_check');
    t.boolean('attributed').notNullable().defaultTo(false);
    // Money history hangs off these: deleting a campaign, code or creator that converted must fail. NO ACTION
    // (checked at statement end) rather than RESTRICT so that deleting a whole app still cascades cleanly.
    t.text('campaign_id').nullable().references('campaigns.id').onDelete('NO ACTION');
    t.text('creator_code_id').nullable().references('creator_codes.id').onDelete('NO ACTION');
    t.text('creator_id').nullable().references('creators.id').onDelete('NO ACTION');
    t.text('referral_code').nullable();
    t.text('attribution_method').nullable();
    t.timestamp('attributed_at', { useTz: true }).nullable();
    t.text('app_user_id').nullable();
    t.text('product_id').nullable();
    t.text('store').nullable();
    t.text('environment').notNullable().defaultTo('PRODUCTION');
    t.boolean('is_test').notNullable().defaultTo(false);
    t.text('status')
      .notNullable()
      .checkIn(['trialing', 'active', 'cancelled', 'billing_issue', 'churned', 'refunded'], 'conversions_status_check');
    t.text('period_type').nullable();
    t.integer('billing_cycles').notNullable().defaultTo(0);
    t.boolean('trial').notNullable().defaultTo(false);
    t.timestamp('trial_converted_at', { useTz: true }).nullable();
    t.timestamp('current_period_ends_at', { useTz: true }).nullable();
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.timestamp('billing_issue_at', { useTz: true }).nullable();
    t.timestamp('churned_at', { useTz: true }).nullable();
    t.timestamp('refunded_at', { useTz: true }).nullable();
    t.text('first_purchase_event_id').nullable(); // FK added after purchase_events (they reference each other)
    t.text('last_event_type').nullable();
    t.timestamp('last_event_at', { useTz: true }).nullable();
    t.text('workflow_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['app_id', 'org_id'], 'conversions_app_org_fk').references(['id', 'org_id']).inTable('apps').onDelete('CASCADE');
    t.unique(['app_id', 'conversion_key'], { indexName: 'conversions_app_key_uq' });
    t.index(['app_id', 'app_user_id'], 'conversions_app_user_idx');
    t.index(['campaign_id', 'created_at'], 'conversions_campaign_created_idx');
    t.index(['creator_id', 'created_at'], 'conversions_creator_created_idx');
    t.index(['org_id', 'created_at'], 'conversions_org_created_idx');
    t.check(`environment in ${ENVIRONMENTS}`, [], 'conversions_environment_check');
    t.check(`attribution_method is null or attribution_method in ${METHODS}`, [], 'conversions_method_check');
    t.check(
      'not attributed or (campaign_id is not null and creator_code_id is ' +
        'not null and creator_id is not null and referral_code is not null)',
      [],
      'conversions_attributed_check',
    );
    t.check('billing_cycles >= 0', [], 'conversions_billing_cycles_check');
  });
  await knex.raw('create index conversions_app_created_idx on conversions (app_id, created_at desc)');

  await knex.schema.createTable('purchase_events', (t) => {
    // Also the event_id returned to the webhook caller.
    t.text('id').primary().defaultTo(knex.raw("svc_id('pev')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('source').notNullable().checkIn(['subprovider', 'store_direct', 'direct', 'test_integration'], 'purchase_events_source_check');
    t.text('provider_event_id').nullable();
    // Not an enumeration CHECK: unknown types must still be recorded (and acknowledged as ignored).
    t.text('event_type').notNullable();
    t.text('transaction_id').nullable();
    t.text('original_transaction_id').nullable();
    t.bigInteger('event_timestamp_ms').notNullable();
    t.timestamp('purchased_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.text('app_user_id').nullable();
    t.text('original_app_user_id').nullable();
    t.specificType('aliases', 'text[]').notNullable().defaultTo(knex.raw("'{}'::text[]"));
    t.text('product_id').nullable();
    t.text('new_product_id').nullable();
    t.text('period_type').nullable();
    t.text('store').nullable();
    t.text('environment').nullable();
    t.boolean('is_test').notNullable().defaultTo(false);
    t.bigInteger('price_usd_micros').nullable();
    t.decimal('price_in_purchased_currency').nullable();
    t.text('currency').nullable();
    // usd_per_unit applied to price_in_purchased_currency, kept so every USD amount can be re-derived.
    t.decimal('fx_rate').nullable();
    t.decimal('takehome_percentage').nullable();
    t.text('cancel_reason').nullable();
    t.text('expiration_reason').nullable();
    t.boolean('is_trial_conversion').nullable();
    t.jsonb('subscriber_attributes').notNullable().defaultTo(emptyJson);
    t.jsonb('raw').notNullable().defaultTo(emptyJson);
    t.text('conversion_id').nullable().references('conversions.id').onDelete('SET NULL');
    t.boolean('attributed').notNullable().defaultTo(false);
    t.boolean('organic').notNullable().defaultTo(false);
    t.text('referral_code').nullable();
    t.text('processing_status')
      .notNullable()
      .defaultTo('received')
      .checkIn(['received', 'processed', 'ignored', 'error'], 'purchase_events_processing_status_check');
    t.text('error').nullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('processed_at', { useTz: true }).nullable();
    t.check(`environment is null or environment in ${ENVIRONMENTS}`, [], 'purchase_events_environment_check');
    t.check("currency is null or currency ~ '^[A-Z]{3}$'", [], 'purchase_events_currency_check');
    t.check('price_usd_micros is null or price_usd_micros >= 0', [], 'purchase_events_price_check');
    t.check('not (attributed and organic)', [], 'purchase_events_attributed_organic_check');
    // A redelivery carries a new provider_event_id only sometimes; this second key catches those that do.
    t.unique(['app_id', 'provider_event_id'], {
      indexName: 'purchase_events_app_provider_event_uq',
      predicate: knex.whereNotNull('provider_event_id'),
    });
    t.index(['app_id', 'app_user_id'], 'purchase_events_app_user_idx');
    t.index(['conversion_id'], 'purchase_events_conversion_idx');
  });
  // The spec's idempotency key. NULLS NOT DISTINCT (PostgreSQL 15+) so events without a transaction id
  // (TEST) are deduplicated too instead of slipping through as "null is never equal".
  await knex.raw(`
    alter table purchase_events add constraint purchase_events_idempotency_uq
      unique nulls not distinct (app_id, event_type, transaction_id, event_timestamp_ms)
  `);
  await knex.raw('create index purchase_events_app_received_idx on purchase_events (app_id, received_at desc)');
  await knex.raw('create index purchase_events_app_env_received_idx on purchase_events (app_id, environment, received_at desc)');

  await knex.schema.alterTable('conversions', (t) => {
    t.foreign('first_purchase_event_id', 'conversions_first_purchase_event_fk').references('purchase_events.id').onDelete('SET NULL');
  });

  // One verification per signed proof: reporting the same purchase twice (auto-capture plus manual, or a
  // client retry) finds the row and the workflow store-purchase/{app_id}/{proof_hash} instead of redoing it.
  await knex.schema.createTable('store_purchase_proofs', (t) => {
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('proof_hash').notNullable();
    t.text('platform').notNullable().checkIn(['ios', 'android'], 'store_purchase_proofs_platform_check');
    t.text('workflow_id').nullable();
    t.text('status')
      .notNullable()
      .defaultTo('pending')
      .checkIn(['pending', 'verified', 'rejected', 'error'], 'store_purchase_proofs_status_check');
    t.text('purchase_event_id').nullable().references('purchase_events.id').onDelete('SET NULL');
    t.jsonb('result').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['app_id', 'proof_hash']);
  });

  // Counted, not logged: a misconfigured caller retrying all day must not grow a table without bound.
  await knex.schema.createTable('rejected_webhooks', (t) => {
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.text('reason').notNullable();
    t.integer('count').notNullable().defaultTo(1);
    t.timestamp('last_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['app_id', 'day', 'reason']);
    t.check('count >= 0', [], 'rejected_webhooks_count_check');
  });

  for (const table of ['conversions', 'store_purchase_proofs']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rejected_webhooks');
  await knex.schema.dropTable('store_purchase_proofs');
  await knex.schema.alterTable('conversions', (t) => {
    t.dropForeign('first_purchase_event_id', 'conversions_first_purchase_event_fk');
  });
  await knex.schema.dropTable('purchase_events');
  await knex.schema.dropTable('conversions');
  await knex.schema.dropTable('fx_rates');
}
