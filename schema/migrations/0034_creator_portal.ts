import type { Knex } from 'knex';

// The creator portal (issue 29, docs/creator-portal.md): creators sign in by a mailed single-use link and are their
// own principal, with their own sessions; money changes leave digest items that a daily job mails.
//
// * creators gain email_verified_at (the first sign-in proves the address), digest_unsubscribed_at and
//   last_digest_at (when the digest job last mailed them).
// * creator_sign_in_tokens: the mailed links; only the token's SHA-256 is stored and spending sets used_at in the
//   statement that reads it, so a link works once even when confirmed twice at the same moment.
// * creator_sessions: like dashboard sessions, but a separate table: a creator session can never be taken for a
//   user's, and a user's never for a creator's.
// * creator_digest_items: one row per money change a creator hears about (a commission that became payable, a
//   payout sent or failed), written in the transaction of the change; unique per cause, so a retried change adds
//   nothing. The digest job sets email_id and digested_at when it puts the item into a mail.
// * payout_clawback_recoveries: which clawbacks a payout netted and how much of each (a payout kept only the total),
//   so a creator's statement can list its clawbacks line by line. Payouts made before this migration list none.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('creators', (t) => {
    t.timestamp('email_verified_at', { useTz: true }).nullable();
    t.timestamp('digest_unsubscribed_at', { useTz: true }).nullable();
    t.timestamp('last_digest_at', { useTz: true }).nullable();
  });

  await knex.schema.createTable('creator_sign_in_tokens', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('csi')"));
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique({ indexName: 'creator_sign_in_tokens_hash_uq' });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['creator_id', 'created_at'], 'creator_sign_in_tokens_creator_idx');
  });

  await knex.schema.createTable('creator_sessions', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('csn')"));
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique({ indexName: 'creator_sessions_hash_uq' });
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['creator_id'], 'creator_sessions_creator_idx');
  });

  await knex.schema.createTable('creator_digest_items', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('cdi')"));
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['commission_payable', 'payout_sent', 'payout_failed'], 'creator_digest_items_kind_check');
    t.text('commission_id').nullable().references('commissions.id').onDelete('CASCADE');
    t.text('payout_id').nullable().references('payouts.id').onDelete('CASCADE');
    t.bigInteger('amount_micros').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('email_id').nullable().references('email_outbox.id').onDelete('SET NULL');
    t.timestamp('digested_at', { useTz: true }).nullable();
    t.check(
      "(kind = 'commission_payable') = (commission_id is not null) and (kind <> 'commission_payable') = (payout_id is not null)",
      [],
      'creator_digest_items_cause_check',
    );
  });
  await knex.raw(
    'create unique index creator_digest_items_commission_uq on creator_digest_items (kind, commission_id) where commission_id is not null',
  );
  await knex.raw(
    'create unique index creator_digest_items_payout_uq on creator_digest_items (kind, payout_id) where payout_id is not null',
  );
  await knex.schema.createTable('payout_clawback_recoveries', (t) => {
    t.text('payout_id').notNullable().references('payouts.id').onDelete('RESTRICT');
    t.text('clawback_id').notNullable().references('clawbacks.id').onDelete('RESTRICT');
    t.bigInteger('micros').notNullable();
    t.primary(['payout_id', 'clawback_id']);
    t.check('micros > 0', [], 'payout_clawback_recoveries_micros_check');
  });
  await knex.raw(
    'create index creator_digest_items_pending_idx on creator_digest_items (creator_id, created_at) where digested_at is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payout_clawback_recoveries');
  await knex.schema.dropTable('creator_digest_items');
  await knex.schema.dropTable('creator_sessions');
  await knex.schema.dropTable('creator_sign_in_tokens');
  await knex.schema.alterTable('creators', (t) => {
    t.dropColumn('last_digest_at');
    t.dropColumn('digest_unsubscribed_at');
    t.dropColumn('email_verified_at');
  });
}
