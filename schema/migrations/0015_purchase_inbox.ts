import type { Knex } from 'knex';

// Inbox first: every conversion event the webhooks accept is written here (once per app and idempotency key)
// before it is handed to its conversion workflow, so an event Temporal cannot take right now is not lost: the
// worker's drainer hands it over once Temporal is back. Rows stay after delivery (the stored event is what
// `svc events retry` re-drives) and are pruned after a retention period unless their event failed.
//
// purchase_events gains the status `failed`: an event the activity could not apply (an unexpected error after its
// bounded attempts), recorded with its reason so the conversion goes on, until an operator re-drives it.

const STATUSES_BEFORE = ['received', 'processed', 'ignored', 'error'];
const STATUSES_AFTER = [...STATUSES_BEFORE, 'failed'];

async function processingStatuses(knex: Knex, statuses: string[]): Promise<void> {
  await knex.raw('alter table purchase_events drop constraint purchase_events_processing_status_check');
  await knex.raw(`alter table purchase_events add constraint purchase_events_processing_status_check
    check (processing_status in (${statuses.map((s) => `'${s}'`).join(', ')}))`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('purchase_inbox', (t) => {
    // Also the order of arrival: the drainer hands a conversion's waiting events over in this order.
    t.bigIncrements('id');
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    // The spec's idempotency key (app, type, transaction id, event timestamp): a redelivery finds its row.
    t.text('idempotency_key').notNullable();
    // The conversion the API resolved (a refund of a one-time purchase: the purchase's transaction id).
    t.text('conversion_key').notNullable();
    t.text('event_type').notNullable();
    // The normalised event (lib/purchase-event.ts), whose `raw` is the body as received.
    t.jsonb('event').notNullable();
    t.text('status').notNullable().defaultTo('waiting').checkIn(['waiting', 'delivered'], 'purchase_inbox_status_check');
    t.integer('attempts').notNullable().defaultTo(0);
    // The API hands a new row over itself; the drainer takes it only once this has passed (a grace beyond the
    // API's 25-second answer limit, then an exponential back-off after each failed hand-over).
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.raw("now() + interval '30 seconds'"));
    t.text('last_error').nullable();
    t.text('purchase_event_id').nullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.unique(['app_id', 'idempotency_key'], { indexName: 'purchase_inbox_app_key_uq' });
    t.index(['next_attempt_at'], 'purchase_inbox_due_idx', { predicate: knex.whereRaw("status = 'waiting'") });
    t.index(['app_id', 'conversion_key', 'id'], 'purchase_inbox_conversion_waiting_idx', {
      predicate: knex.whereRaw("status = 'waiting'"),
    });
    t.index(['delivered_at'], 'purchase_inbox_delivered_idx', { predicate: knex.whereRaw("status = 'delivered'") });
    t.check('attempts >= 0', [], 'purchase_inbox_attempts_check');
  });
  await processingStatuses(knex, STATUSES_AFTER);
  // The operator's questions "what failed?" (retry command, the failed-events gauge) without a scan.
  await knex.raw("create index purchase_events_failed_idx on purchase_events (app_id, received_at) where processing_status = 'failed'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index purchase_events_failed_idx');
  await knex('purchase_events').where('processing_status', 'failed').update({ processing_status: 'error' });
  await processingStatuses(knex, STATUSES_BEFORE);
  await knex.schema.dropTable('purchase_inbox');
}
