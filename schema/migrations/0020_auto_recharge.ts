import type { Knex } from 'knex';

// Auto-recharge of wallets. The organization keeps the human's settings (0001 has enabled, threshold and amount)
// plus the saved payment method they chose on the top-up page and, when the service turned it off after repeated
// failures, why. A recharge is a payment like a top-up (`kind` tells them apart) so it is credited through the same
// path, once; `request_key` names the workflow attempt that created it, so a retried activity finds its payment
// instead of charging again. A Stripe setup (Checkout in setup mode) waits in `auto_recharge_setups` until its
// signed webhook reports the saved card.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.text('auto_recharge_provider').nullable();
    t.text('auto_recharge_customer_id').nullable();
    t.text('auto_recharge_payment_method_id').nullable();
    t.text('auto_recharge_payment_method_label').nullable();
    t.text('auto_recharge_disabled_reason').nullable();
    t.timestamp('auto_recharge_updated_at', { useTz: true }).nullable();
    t.check("auto_recharge_provider is null or auto_recharge_provider in ('test', 'stripe')", [], 'organizations_recharge_provider_check');
    t.check(
      'not auto_recharge_enabled or (auto_recharge_threshold_micros is not null and ' +
        'auto_recharge_amount_micros is not null and auto_recharge_payment_method_id is not null and ' +
        'auto_recharge_provider is not null)',
      [],
      'organizations_recharge_complete_check',
    );
  });
  await knex.schema.alterTable('payments', (t) => {
    t.text('kind').notNullable().defaultTo('topup').checkIn(['topup', 'auto_recharge'], 'payments_kind_check');
    t.text('request_key').nullable().unique({ indexName: 'payments_request_key_uq' });
    t.index(['org_id', 'kind', 'created_at'], 'payments_org_kind_created_idx');
  });
  await knex.schema.createTable('auto_recharge_setups', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('ars')"));
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('provider').notNullable().checkIn(['stripe'], 'auto_recharge_setups_provider_check');
    t.bigInteger('threshold_micros').notNullable();
    t.bigInteger('amount_micros').notNullable();
    // The Checkout Session id (setup mode).
    t.text('external_id').nullable().unique({ indexName: 'auto_recharge_setups_external_uq' });
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'completed', 'failed'], 'auto_recharge_setups_status_check');
    t.text('failure').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.check('threshold_micros > 0 and amount_micros > 0', [], 'auto_recharge_setups_amounts_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('auto_recharge_setups');
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex([], 'payments_org_kind_created_idx');
    t.dropUnique([], 'payments_request_key_uq');
    t.dropChecks(['payments_kind_check']);
    t.dropColumn('kind');
    t.dropColumn('request_key');
  });
  await knex.schema.alterTable('organizations', (t) => {
    t.dropChecks(['organizations_recharge_provider_check', 'organizations_recharge_complete_check']);
    for (const c of [
      'auto_recharge_provider',
      'auto_recharge_customer_id',
      'auto_recharge_payment_method_id',
      'auto_recharge_payment_method_label',
      'auto_recharge_disabled_reason',
      'auto_recharge_updated_at',
    ])
      t.dropColumn(c);
  });
}
