import type { Knex } from 'knex';

// Google Play real-time developer notifications (issue 31): the Pub/Sub push subscription that delivers them signs
// each push with an OIDC token of a service account the developer picks; the Android credential upload names it
// (`pubsub_service_account`), and the push endpoint accepts only tokens of that account. Not secret: a column.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_credentials', (t) => {
    t.text('pubsub_service_account').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('store_credentials', (t) => {
    t.dropColumn('pubsub_service_account');
  });
}
