import type { Knex } from 'knex';

// Store-direct validation and FX (issue 12). A purchase converted to USD keeps the rate, its publication date and
// its source beside the rate itself (purchase_events.fx_rate exists since 0006). fx_rate_loads records which ECB
// file was read when and which days it spans, so a cached rate is known to be the latest published one not after
// a purchase date (weekends, holidays) instead of merely the latest one cached.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('purchase_events', (t) => {
    t.date('fx_rate_date').nullable();
    t.text('fx_source').nullable();
  });
  await knex.schema.createTable('fx_rate_loads', (t) => {
    t.bigIncrements('id').primary();
    t.text('source').notNullable();
    t.date('first_date').notNullable();
    t.date('last_date').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('first_date <= last_date', [], 'fx_rate_loads_range_check');
  });
  await knex.raw('create index fx_rate_loads_span_idx on fx_rate_loads (first_date, last_date)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('fx_rate_loads');
  await knex.schema.alterTable('purchase_events', (t) => {
    t.dropColumn('fx_source');
    t.dropColumn('fx_rate_date');
  });
}
