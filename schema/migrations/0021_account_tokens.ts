import type { Knex } from 'knex';

// Dashboard accounts: the one-time tokens that arrive by email (email verification after sign-up, password reset,
// a teammate's invitation into an organization). Only the token's SHA-256 is stored; a token is spent by setting
// used_at in the same statement that reads it, so it works once even under concurrent clicks.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_tokens', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('atk')"));
    t.text('purpose').notNullable().checkIn(['verify_email', 'reset_password', 'invite'], 'account_tokens_purpose_check');
    t.text('token_hash').notNullable().unique({ indexName: 'account_tokens_hash_uq' });
    // verify_email and reset_password name a user; an invitation names an email that may have no user yet.
    t.text('user_id').nullable().references('users.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('org_id').nullable().references('organizations.id').onDelete('CASCADE');
    t.text('role').nullable().checkIn(['owner', 'admin', 'member'], 'account_tokens_role_check');
    t.text('created_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['org_id', 'purpose'], 'account_tokens_org_idx');
    t.check("purpose <> 'invite' or (org_id is not null and role is not null)", [], 'account_tokens_invite_check');
    t.check("purpose = 'invite' or user_id is not null", [], 'account_tokens_user_check');
  });
  // Sign-in now needs a verified email. Users from before (the demo seed, operators) never had a way to verify,
  // so they count as verified: an existing `.svc` keeps its printed demo login working.
  await knex('users')
    .whereNull('email_verified_at')
    .update({ email_verified_at: knex.ref('created_at') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_tokens');
}
