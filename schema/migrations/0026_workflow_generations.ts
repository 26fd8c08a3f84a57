import type { Knex } from 'knex';

// The workflow generation a database's open runs were recorded with (docs/purchase-pipeline.md "Workflow versions"). A worker refuses
// to start on an older one, whose runs its code can no longer replay: `svc workflows rehydrate` restarts them
// from PostgreSQL and records the current generation. No row: a database from before generations existed (older
// when it holds purchase events, else stamped current at the first worker start).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflow_generations', (t) => {
    t.text('workflow').primary();
    t.integer('generation').notNullable();
    t.timestamp('recorded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workflow_generations');
}
