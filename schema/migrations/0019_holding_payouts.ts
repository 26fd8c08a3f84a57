import type { Knex } from 'knex';

// Holding period, clawbacks and payouts (issue 13).
//
// * campaigns.holding_period_days: how long a production commission stays `reserved` before it becomes `payable`
//   (the conversion workflow releases it at commissions.payable_at, set when the commission is earned).
// * commissions.status gains `payable`; a payout sets `paid`, `paid_at` and `payout_id`.
// * wallet_ledger gains the entry type `clawback` (balance +X, reserved 0): money a creator owed back (a refund after
//   the holding period) that a payout kept in the wallet by netting it from what the creator was paid.
// * clawbacks: the creator's negative balance, one row per commission refunded after its release; a payout recovers
//   it (recovered_micros) oldest first.
// * payout_runs / payouts: one run per operator-chosen run id (the idempotency key of a run) and one payout per
//   creator in it (gross, fees, clawbacks netted, net).

const STATUSES_BEFORE = ['reserved', 'unfunded', 'simulated', 'reversed', 'paid'];
const STATUSES_AFTER = [...STATUSES_BEFORE, 'payable'];
const ENTRY_TYPES_BEFORE = ['topup', 'reserve', 'release', 'reversal', 'payout', 'adjustment'];
const ENTRY_TYPES_AFTER = [...ENTRY_TYPES_BEFORE, 'clawback'];
const SIGNS_BEFORE = `(entry_type = 'topup' and balance_delta_micros > 0 and reserved_delta_micros = 0)
       or (entry_type = 'reserve' and balance_delta_micros = 0 and reserved_delta_micros > 0)
       or (entry_type in ('release', 'reversal') and balance_delta_micros = 0 and reserved_delta_micros < 0)
       or (entry_type = 'payout' and balance_delta_micros < 0 and reserved_delta_micros <= 0
           and reserved_delta_micros >= balance_delta_micros)
       or (entry_type = 'adjustment' and (balance_delta_micros <> 0 or reserved_delta_micros <> 0) and memo is not null)`;
const SIGNS_AFTER = `${SIGNS_BEFORE}
       or (entry_type = 'clawback' and balance_delta_micros > 0 and reserved_delta_micros = 0)`;

const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

async function constraints(knex: Knex, statuses: string[], entryTypes: string[], signs: string): Promise<void> {
  await knex.raw('alter table commissions drop constraint commissions_status_check');
  await knex.raw(`alter table commissions add constraint commissions_status_check check (status in (${list(statuses)}))`);
  await knex.raw('alter table wallet_ledger drop constraint wallet_ledger_entry_type_check');
  await knex.raw(`alter table wallet_ledger add constraint wallet_ledger_entry_type_check check (entry_type in (${list(entryTypes)}))`);
  await knex.raw('alter table wallet_ledger drop constraint wallet_ledger_sign_check');
  await knex.raw(`alter table wallet_ledger add constraint wallet_ledger_sign_check check (${signs})`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.integer('holding_period_days').notNullable().defaultTo(30);
    t.check('holding_period_days between 0 and 365', [], 'campaigns_holding_period_check');
  });

  await knex.schema.createTable('payout_runs', (t) => {
    // Chosen by the operator (`svc payouts run --run-id`) or generated: the same id never pays twice.
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('RESTRICT');
    t.text('created_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('payouts', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('pout')"));
    t.text('run_id').notNullable().references('payout_runs.id').onDelete('RESTRICT');
    t.text('org_id').notNullable().references('organizations.id').onDelete('RESTRICT');
    t.text('creator_id').notNullable().references('creators.id').onDelete('RESTRICT');
    t.integer('commission_count').notNullable();
    // Sum of the paid commissions (what the creator earned), the platform fees that left with them, the clawbacks
    // recovered from this payout, and what the creator receives: net = gross - clawbacks_netted.
    t.bigInteger('gross_micros').notNullable();
    t.bigInteger('fees_micros').notNullable();
    t.bigInteger('clawbacks_netted_micros').notNullable();
    t.bigInteger('net_micros').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['run_id', 'creator_id'], { indexName: 'payouts_run_creator_uq' });
    t.index(['org_id', 'creator_id'], 'payouts_org_creator_idx');
    t.check(
      'gross_micros >= 0 and fees_micros >= 0 and clawbacks_netted_micros >= 0 and clawbacks_netted_micros <= gross_micros',
      [],
      'payouts_amounts_check',
    );
    t.check('net_micros = gross_micros - clawbacks_netted_micros', [], 'payouts_net_check');
  });

  await knex.schema.createTable('clawbacks', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('clb')"));
    t.text('org_id').notNullable().references('organizations.id').onDelete('RESTRICT');
    t.text('creator_id').notNullable().references('creators.id').onDelete('RESTRICT');
    // The released (payable or paid) commission a refund took back: one clawback per commission at most.
    t.text('commission_id')
      .notNullable()
      .unique({ indexName: 'clawbacks_commission_uq' })
      .references('commissions.id')
      .onDelete('RESTRICT');
    t.text('refund_event_id').notNullable().references('purchase_events.id').onDelete('RESTRICT');
    t.bigInteger('amount_micros').notNullable();
    t.bigInteger('recovered_micros').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id', 'creator_id'], 'clawbacks_org_creator_idx');
    t.check('amount_micros > 0 and recovered_micros >= 0 and recovered_micros <= amount_micros', [], 'clawbacks_amounts_check');
  });
  await knex.raw(
    'create trigger clawbacks_touch_updated_at before update on clawbacks for each row execute function svc_touch_updated_at()',
  );

  await knex.schema.alterTable('commissions', (t) => {
    // When a production earn becomes payable (earned at + the campaign's holding period); null for sandbox rows.
    t.timestamp('payable_at', { useTz: true }).nullable();
    t.text('payout_id').nullable().references('payouts.id').onDelete('RESTRICT');
    t.index(['payout_id'], 'commissions_payout_idx');
  });
  await constraints(knex, STATUSES_AFTER, ENTRY_TYPES_AFTER, SIGNS_AFTER);
  // Commissions earned before this migration hold for the default 30 days from when they were earned; their
  // conversion's workflow releases them the next time it applies an event.
  await knex.raw(`update commissions set payable_at = created_at + interval '30 days'
    where kind = 'earn' and environment = 'PRODUCTION' and status in ('reserved', 'unfunded') and reversed_at is null`);
  // A payout run reads an organization's payable commissions.
  await knex.raw("create index commissions_org_payable_idx on commissions (org_id, created_at) where status = 'payable'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("update commissions set status = 'reserved' where status = 'payable'");
  await knex.raw('drop index commissions_org_payable_idx');
  await knex.schema.alterTable('commissions', (t) => {
    t.dropColumn('payout_id');
    t.dropColumn('payable_at');
  });
  // Refused when clawback entries exist: the ledger is append-only, so such a database cannot go back.
  await constraints(knex, STATUSES_BEFORE, ENTRY_TYPES_BEFORE, SIGNS_BEFORE);
  await knex.schema.dropTable('clawbacks');
  await knex.schema.dropTable('payouts');
  await knex.schema.dropTable('payout_runs');
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropChecks(['campaigns_holding_period_check']);
    t.dropColumn('holding_period_days');
  });
}
