import type { Knex } from 'knex';

// Android subscription refunds (issue 12): Google Play's Voided Purchases API is polled per Android store-direct
// app by the workflow play-voided-sync/{app_id}. play_voided_cursors keeps where the next poll starts (Google
// filters by the time it saw the void, at most 30 days back); play_voided_purchases keeps every voided order seen
// and what became of it: the REFUND event it recorded, or why it was ignored (an order we never recorded).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('play_voided_cursors', (t) => {
    t.text('app_id').primary().references('apps.id').onDelete('CASCADE');
    t.bigInteger('synced_until_ms').nullable();
    t.integer('polls').notNullable().defaultTo(0);
    t.timestamp('last_poll_at', { useTz: true }).nullable();
    t.text('last_error').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('play_voided_purchases', (t) => {
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('order_id').notNullable();
    t.text('purchase_token').notNullable();
    t.bigInteger('voided_time_ms').notNullable();
    t.integer('voided_source').nullable();
    t.integer('voided_reason').nullable();
    t.integer('refund_type').nullable();
    t.integer('voided_quantity').nullable();
    t.text('kind').nullable().checkIn(['subscription', 'one_time'], 'play_voided_purchases_kind_check');
    t.text('outcome').notNullable().checkIn(['refund', 'ignored'], 'play_voided_purchases_outcome_check');
    t.text('reason').nullable();
    t.text('purchase_event_id').nullable().references('purchase_events.id').onDelete('SET NULL');
    t.integer('seen').notNullable().defaultTo(1);
    t.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['app_id', 'order_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('play_voided_purchases');
  await knex.schema.dropTable('play_voided_cursors');
}
