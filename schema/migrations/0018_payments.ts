import type { Knex } from 'knex';

// Wallet top-ups through a payment provider (the embedded test mode or Stripe Checkout). A payment is created when
// the human starts it on the signed top-up page (the link is spent in the same transaction) and credited once: the
// ledger's `topup` entry is keyed on the payment, and a provider's session id names one payment only.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payments', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('pay')"));
    t.text('org_id').notNullable().references('organizations.id').onDelete('RESTRICT');
    t.text('provider').notNullable().checkIn(['test', 'stripe'], 'payments_provider_check');
    // Stripe: the Checkout Session id; test mode: null until confirmed.
    t.text('external_id').nullable();
    t.bigInteger('amount_micros').notNullable();
    t.text('currency').notNullable().defaultTo('USD');
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'succeeded', 'failed'], 'payments_status_check');
    // Test mode: the digest of the confirmation token put in the page's form (the human's confirmation).
    t.text('confirm_token_hash').nullable();
    t.text('link_nonce').nullable().unique({ indexName: 'payments_link_nonce_uq' });
    t.bigInteger('credited_micros').nullable();
    t.text('failure').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('credited_at', { useTz: true }).nullable();
    t.unique(['provider', 'external_id'], { indexName: 'payments_provider_external_uq' });
    t.index(['org_id', 'created_at'], 'payments_org_created_idx');
    t.check('amount_micros > 0', [], 'payments_amount_check');
    t.check("status <> 'succeeded' or (credited_at is not null and credited_micros > 0)", [], 'payments_credited_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payments');
}
