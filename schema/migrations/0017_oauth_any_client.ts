import type { Knex } from 'knex';

// OAuth clients identified by a Client ID Metadata Document (an https URL) are fetched, never registered, so a
// grant's client is not always a row of oauth_clients: the foreign key goes. The access-token lookup of every
// agent call reads oauth_store by (model, id) (the primary key) and then the grant by id; revoking a grant
// deletes its rows by grant_id (indexed in 0008).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_grants', (t) => {
    t.dropForeign(['client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_grants', (t) => {
    t.foreign('client_id').references('oauth_clients.client_id').onDelete('CASCADE');
  });
}
