import type { Knex } from 'knex';

// Money: commissions, milestone bonus awards and the wallet ledger. Every foreign key into or out of these
// tables is RESTRICT: money history is never deleted as a side effect of deleting something else.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('commissions', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('com')"));
    t.text('conversion_id').notNullable().references('conversions.id').onDelete('RESTRICT');
    t.text('purchase_event_id').notNullable().references('purchase_events.id').onDelete('RESTRICT');
    t.text('app_id').notNullable();
    t.text('org_id').notNullable();
    t.text('campaign_id').notNullable().references('campaigns.id').onDelete('RESTRICT');
    t.text('creator_id').notNullable().references('creators.id').onDelete('RESTRICT');
    t.text('creator_code_id').nullable().references('creator_codes.id').onDelete('RESTRICT');
    t.text('kind').notNullable().checkIn(['earn', 'reversal'], 'commissions_kind_check');
    // A reversal points at the earn it undoes; unique so a refund redelivered under another event id still
    // cannot reverse the same commission twice.
    t.text('reverses_commission_id')
      .nullable()
      .unique({ indexName: 'commissions_reverses_uq' })
      .references('commissions.id')
      .onDelete('RESTRICT');
    t.text('environment').notNullable().defaultTo('PRODUCTION');
    // Sign convention: earn rows are >= 0, reversal rows carry the negated amounts, so SUM() over a
    // conversion, creator or campaign is always the net figure.
    t.bigInteger('revenue_usd_micros').notNullable();
    t.bigInteger('commission_micros').notNullable();
    t.bigInteger('platform_fee_micros').notNullable().defaultTo(0);
    t.decimal('commission_percentage', 6, 3).notNullable();
    t.decimal('platform_fee_percentage', 6, 3).nullable();
    t.decimal('fx_rate').nullable();
    t.text('status').notNullable().checkIn(['reserved', 'unfunded', 'simulated', 'reversed', 'paid'], 'commissions_status_check');
    t.timestamp('reversed_at', { useTz: true }).nullable();
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['app_id', 'org_id'], 'commissions_app_org_fk').references(['id', 'org_id']).inTable('apps').onDelete('RESTRICT');
    // One earn per paid purchase event and one reversal per refund event: the retry of either is a no-op.
    t.unique(['purchase_event_id', 'kind'], { indexName: 'commissions_event_kind_uq' });
    t.index(['conversion_id'], 'commissions_conversion_idx');
    t.index(['campaign_id', 'created_at'], 'commissions_campaign_created_idx');
    t.index(['creator_id', 'created_at'], 'commissions_creator_created_idx');
    t.index(['org_id', 'status'], 'commissions_org_status_idx');
    t.check("environment in ('PRODUCTION', 'SANDBOX', 'XCODE', 'LOCAL_TESTING')", [], 'commissions_environment_check');
    t.check(
      "(kind = 'earn' and reverses_commission_id is null and " +
        'revenue_usd_micros >= 0 and commission_micros >= 0 and platform_fee_micros >= 0)' +
        " or (kind = 'reversal' and reverses_commission_id is not null and " +
        'revenue_usd_micros <= 0 and commission_micros <= 0 and platform_fee_micros <= 0)',
      [],
      'commissions_sign_check',
    );
    t.check('commission_percentage between 0 and 100', [], 'commissions_percentage_check');
    // Sandbox purchases never move money: their commissions can only ever be informational.
    t.check("environment = 'PRODUCTION' or status = 'simulated'", [], 'commissions_sandbox_check');
  });

  await knex.schema.createTable('bonus_awards', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('bna')"));
    t.text('bonus_rule_id').notNullable().references('bonus_rules.id').onDelete('RESTRICT');
    t.text('campaign_id').notNullable();
    t.text('creator_id').notNullable().references('creators.id').onDelete('RESTRICT');
    t.text('org_id').notNullable();
    t.bigInteger('amount_micros').notNullable();
    // Snapshot of the rule at earn time, so a later rule edit does not rewrite history.
    t.integer('threshold_conversions').notNullable();
    // Progress counts only qualifying (production, non-refunded, not fraud-flagged) conversions; the
    // evidence for what was discounted goes to fraud_flags for the human reviewer.
    t.integer('progress_count').notNullable().defaultTo(0);
    t.jsonb('fraud_flags').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
    t.text('status').notNullable().defaultTo('earned').checkIn(['earned', 'approved', 'voided', 'paid'], 'bonus_awards_status_check');
    t.timestamp('earned_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('reviewed_at', { useTz: true }).nullable();
    t.text('reviewed_by').nullable();
    t.text('review_note').nullable();
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['campaign_id', 'org_id'], 'bonus_awards_campaign_org_fk')
      .references(['id', 'org_id'])
      .inTable('campaigns')
      .onDelete('RESTRICT');
    // A milestone is earned once per creator, however often the progress check re-runs.
    t.unique(['bonus_rule_id', 'creator_id'], { indexName: 'bonus_awards_rule_creator_uq' });
    t.index(['org_id', 'status'], 'bonus_awards_org_status_idx');
    t.index(['campaign_id'], 'bonus_awards_campaign_idx');
    t.check('amount_micros >= 0', [], 'bonus_awards_amount_check');
    t.check('progress_count >= 0', [], 'bonus_awards_progress_check');
    t.check("status = 'earned' or reviewed_at is not null", [], 'bonus_awards_reviewed_check');
  });

  // The wallet is this ledger; nothing stores a balance. Per organization:
  //   balance        = SUM(balance_delta_micros)   money held in escrow for the org
  //   reserved       = SUM(reserved_delta_micros)  part of the balance earmarked for creators
  //   safe_available = balance - reserved
  // Entry types and their signs (enforced below):
  //   topup       balance +X, reserved  0
  //   reserve     balance  0, reserved +X   (commission earned / bonus approved)
  //   release     balance  0, reserved -X   (hold no longer needed, e.g. bonus voided)
  //   reversal    balance  0, reserved -X   (refund reversed a reserved commission)
  //   payout      balance -X, reserved -Y   (money leaves; Y <= X consumes the matching reservation)
  //   adjustment  any signs, not both zero  (operator correction, memo required)
  // Writers lock the organizations row (SELECT ... FOR UPDATE) before reading the sums and inserting, so
  // two concurrent reserves cannot both spend the same safe_available.
  await knex.schema.createTable('wallet_ledger', (t) => {
    t.bigIncrements('id');
    t.text('org_id').notNullable().references('organizations.id').onDelete('RESTRICT');
    t.text('entry_type')
      .notNullable()
      .checkIn(['topup', 'reserve', 'release', 'reversal', 'payout', 'adjustment'], 'wallet_ledger_entry_type_check');
    t.bigInteger('balance_delta_micros').notNullable().defaultTo(0);
    t.bigInteger('reserved_delta_micros').notNullable().defaultTo(0);
    t.text('commission_id').nullable().references('commissions.id').onDelete('RESTRICT');
    t.text('bonus_award_id').nullable().references('bonus_awards.id').onDelete('RESTRICT');
    // e.g. "reserve:com_...", "topup:<payment id>": the entry is written at most once per cause.
    t.text('idempotency_key').notNullable().unique({ indexName: 'wallet_ledger_idempotency_uq' });
    t.text('external_ref').nullable();
    t.text('memo').nullable();
    t.text('created_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id', 'created_at'], 'wallet_ledger_org_created_idx');
    t.index(['commission_id'], 'wallet_ledger_commission_idx');
    t.index(['bonus_award_id'], 'wallet_ledger_bonus_award_idx');
    t.check(
      `(entry_type = 'topup' and balance_delta_micros > 0 and reserved_delta_micros = 0)
       or (entry_type = 'reserve' and balance_delta_micros = 0 and reserved_delta_micros > 0)
       or (entry_type in ('release', 'reversal') and balance_delta_micros = 0 and reserved_delta_micros < 0)
       or (entry_type = 'payout' and balance_delta_micros < 0 and reserved_delta_micros <= 0
           and reserved_delta_micros >= balance_delta_micros)
       or (entry_type = 'adjustment' and (balance_delta_micros <> 0 or reserved_delta_micros <> 0) and memo is not null)`,
      [],
      'wallet_ledger_sign_check',
    );
  });

  // The ledger is append-only: corrections are new entries, never edits.
  await knex.raw(`
    create function svc_wallet_ledger_append_only() returns trigger
    language plpgsql
    as $$
    begin
      raise exception 'wallet_ledger is append-only (% refused)', tg_op;
    end
    $$
  `);
  await knex.raw(`
    create trigger wallet_ledger_append_only before update or delete on wallet_ledger
    for each row execute function svc_wallet_ledger_append_only()
  `);

  for (const table of ['commissions', 'bonus_awards']) {
    await knex.raw(
      `create trigger ${table}_touch_updated_at before update on ${table} for each row execute function svc_touch_updated_at()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('wallet_ledger');
  await knex.raw('drop function svc_wallet_ledger_append_only()');
  await knex.schema.dropTable('bonus_awards');
  await knex.schema.dropTable('commissions');
}
