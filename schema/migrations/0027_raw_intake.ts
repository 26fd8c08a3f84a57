import type { Knex } from 'knex';

// Raw intake: an item a store sent us, verified (its signature or its push authentication checked) but not yet
// normalised into purchase events, kept once per (app, source, external id) so a redelivery is recognised before
// any parsing. A workflow normalises it later (store server notifications come next); `normalised_at` says it did.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('raw_intake', (t) => {
    t.bigIncrements('id');
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    // Who sent it, e.g. 'app_store_notification', 'play_rtdn': the namespace of `external_id`.
    t.text('source').notNullable();
    // The sender's own id of the item (App Store notificationUUID, Pub/Sub messageId).
    t.text('external_id').notNullable();
    // The verified item as received.
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('normalised_at', { useTz: true }).nullable();
    t.unique(['app_id', 'source', 'external_id'], { indexName: 'raw_intake_item_uq' });
    // What a normalising workflow looks for.
    t.index(['received_at'], 'raw_intake_pending_idx', { predicate: knex.whereRaw('normalised_at is null') });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('raw_intake');
}
