import type { Knex } from 'knex';

// Payouts that pay (issue 30).
//
// * payout_accounts: one payout account per creator (creators are global, one per person), at the payout provider
//   (`test` or `stripe`: a Connect Express account), with the readiness Stripe last reported.
// * payouts gain a transfer state: `transfer_pending` after the run recorded it (phase 1), then `transferred` (the
//   provider's transfer id), `settled` (nothing to send: clawbacks netted it all) or `returned` (refused or reversed:
//   its lines went back to payable, with compensating `payout_return` entries).
// * wallet_ledger gains `payout_return`: money a payout had taken out coming back (balance and reservation back
//   for a commission or award line; for the clawbacks the payout had netted, balance taken again, reserved 0).
// * payout_settings: per organization, the minimum payout (USD micros) and the schedule's period.
// * stripe_events: the ids of Stripe events already handled, per endpoint (deliveries are at least once).
// * payments.available_at: when a top-up's funds become available in the platform's Stripe balance.
// * creator_bank_payouts: the connected account's own payouts to the creator's bank (shown, never in our ledger).

const ENTRY_TYPES_BEFORE = ['topup', 'reserve', 'release', 'reversal', 'payout', 'adjustment', 'clawback'];
const ENTRY_TYPES_AFTER = [...ENTRY_TYPES_BEFORE, 'payout_return'];
const SIGNS_BEFORE = `(entry_type = 'topup' and balance_delta_micros > 0 and reserved_delta_micros = 0)
       or (entry_type = 'reserve' and balance_delta_micros = 0 and reserved_delta_micros > 0)
       or (entry_type in ('release', 'reversal') and balance_delta_micros = 0 and reserved_delta_micros < 0)
       or (entry_type = 'payout' and balance_delta_micros < 0 and reserved_delta_micros <= 0
           and reserved_delta_micros >= balance_delta_micros)
       or (entry_type = 'adjustment' and (balance_delta_micros <> 0 or reserved_delta_micros <> 0) and memo is not null)
       or (entry_type = 'clawback' and balance_delta_micros > 0 and reserved_delta_micros = 0)`;
const SIGNS_AFTER =
  `${SIGNS_BEFORE}
       or (entry_type = 'payout_return' and ((balance_delta_micros > 0 and ` +
  `reserved_delta_micros >= 0 and reserved_delta_micros <= balance_delta_micros)
           or (balance_delta_micros < 0 and reserved_delta_micros = 0)))`;

const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

async function constraints(knex: Knex, entryTypes: string[], signs: string): Promise<void> {
  await knex.raw('alter table wallet_ledger drop constraint wallet_ledger_entry_type_check');
  await knex.raw(`alter table wallet_ledger add constraint wallet_ledger_entry_type_check check (entry_type in (${list(entryTypes)}))`);
  await knex.raw('alter table wallet_ledger drop constraint wallet_ledger_sign_check');
  await knex.raw(`alter table wallet_ledger add constraint wallet_ledger_sign_check check (${signs})`);
}

export async function up(knex: Knex): Promise<void> {
  await constraints(knex, ENTRY_TYPES_AFTER, SIGNS_AFTER);

  await knex.schema.createTable('payout_accounts', (t) => {
    t.text('creator_id').primary().references('creators.id').onDelete('RESTRICT');
    t.text('provider').notNullable().checkIn(['test', 'stripe'], 'payout_accounts_provider_check');
    t.text('external_id').notNullable().unique({ indexName: 'payout_accounts_external_uq' });
    t.text('country').notNullable();
    // What the provider last said (account.updated, or a read on return from onboarding).
    t.boolean('transfers_active').notNullable().defaultTo(false);
    t.boolean('payouts_enabled').notNullable().defaultTo(false);
    // Requirements currently due or past due, or a disabled reason: the account is not ready while any exist.
    t.jsonb('requirements_due').notNullable().defaultTo('[]');
    t.text('disabled_reason').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'create trigger payout_accounts_touch_updated_at before update on payout_accounts for each row execute function svc_touch_updated_at()',
  );

  await knex.schema.alterTable('payouts', (t) => {
    // Rows of earlier runs were sent outside the service: they are `settled`.
    t.text('transfer_status')
      .notNullable()
      .defaultTo('settled')
      .checkIn(['transfer_pending', 'transferred', 'settled', 'returned'], 'payouts_transfer_status_check');
    t.text('transfer_id').nullable().unique({ indexName: 'payouts_transfer_uq' });
    t.text('transfer_provider').nullable();
    t.text('failure').nullable();
    t.timestamp('transferred_at', { useTz: true }).nullable();
    t.timestamp('returned_at', { useTz: true }).nullable();
    t.index(['org_id'], 'payouts_transfer_pending_idx', { predicate: knex.whereRaw("transfer_status = 'transfer_pending'") });
  });
  await knex.raw("alter table payouts alter column transfer_status set default 'transfer_pending'");

  // Which clawbacks each payout recovered is payout_clawback_recoveries (0034_creator_portal.ts): a returned payout
  // gives exactly those back.

  await knex.schema.createTable('payout_settings', (t) => {
    t.text('org_id').primary().references('organizations.id').onDelete('CASCADE');
    // Creators whose net is below this are held over to a later run.
    t.bigInteger('minimum_payout_micros').notNullable().defaultTo(0);
    // Null: no schedule (runs on demand only).
    t.integer('period_hours').nullable();
    t.text('updated_by').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('minimum_payout_micros >= 0', [], 'payout_settings_minimum_check');
    t.check('period_hours is null or period_hours between 1 and 8784', [], 'payout_settings_period_check');
  });

  await knex.schema.createTable('stripe_events', (t) => {
    t.text('endpoint').notNullable().checkIn(['platform', 'connect'], 'stripe_events_endpoint_check');
    t.text('id').notNullable();
    t.text('type').notNullable();
    t.timestamp('handled_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['endpoint', 'id']);
  });

  await knex.schema.alterTable('payments', (t) => {
    t.timestamp('available_at', { useTz: true }).nullable();
  });

  await knex.schema.createTable('creator_bank_payouts', (t) => {
    t.text('id').primary();
    t.text('creator_id').notNullable().references('creators.id').onDelete('RESTRICT');
    t.bigInteger('amount_micros').notNullable();
    t.text('currency').notNullable();
    t.text('status').notNullable();
    t.text('failure_message').nullable();
    t.timestamp('arrival_at', { useTz: true }).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['creator_id'], 'creator_bank_payouts_creator_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('creator_bank_payouts');
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('available_at');
  });
  await knex.schema.dropTable('stripe_events');
  await knex.schema.dropTable('payout_settings');
  await knex.schema.alterTable('payouts', (t) => {
    t.dropIndex(['org_id'], 'payouts_transfer_pending_idx');
    for (const c of ['transfer_status', 'transfer_id', 'transfer_provider', 'failure', 'transferred_at', 'returned_at']) t.dropColumn(c);
  });
  await knex.schema.dropTable('payout_accounts');
  // Refused when payout_return entries exist: the ledger is append-only.
  await constraints(knex, ENTRY_TYPES_BEFORE, SIGNS_BEFORE);
}
