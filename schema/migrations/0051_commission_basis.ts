import type { Knex } from 'knex';

// Commission basis (issue 38, docs/purchase-pipeline.md "Commission basis"): a campaign pays on the customer's price
// (`gross`, the rule so far and the default) or on what the developer receives (`proceeds`).
//
// * campaigns.commission_basis: `gross` | `proceeds`, read with the terms at each event (a change applies to events
//   after it only).
// * apps: the store fee settings an estimate uses: Apple's Small Business Program (per developer account, kept per
//   app) and Google Play's 15 % service-fee tier enrolment (one-time products).
// * purchase_events: the provider's fractions of the price, `store_fee_fraction` (RevenueCat's commission_percentage,
//   the store's cut, 0-1) and `tax_fraction` (tax_percentage, 0-1): never stored under a name like the campaign's
//   commission_percentage (0-100).
// * commissions: the basis each was computed on and the amounts behind it (price, tax, store fee, base) with
//   `exact` | `estimated`. Rows written before are gross: price = base = revenue, exact.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.text('commission_basis').notNullable().defaultTo('gross');
    t.check("commission_basis in ('gross', 'proceeds')", [], 'campaigns_commission_basis_check');
  });
  await knex.schema.alterTable('apps', (t) => {
    t.boolean('apple_small_business_program').notNullable().defaultTo(false);
    t.boolean('google_play_fee_tier_enrolled').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('purchase_events', (t) => {
    t.decimal('store_fee_fraction', null).nullable();
    t.decimal('tax_fraction', null).nullable();
    t.check('store_fee_fraction between 0 and 1 and tax_fraction between 0 and 1', [], 'purchase_events_fractions_check');
  });
  await knex.schema.alterTable('commissions', (t) => {
    t.text('commission_basis').notNullable().defaultTo('gross');
    t.text('basis_precision').notNullable().defaultTo('exact');
    t.bigInteger('basis_gross_micros').nullable();
    t.bigInteger('basis_tax_micros').nullable();
    t.bigInteger('basis_store_fee_micros').nullable();
    t.bigInteger('basis_base_micros').nullable();
    t.check("commission_basis in ('gross', 'proceeds')", [], 'commissions_basis_check');
    t.check("basis_precision in ('exact', 'estimated')", [], 'commissions_basis_precision_check');
  });
  await knex.raw('update commissions set basis_gross_micros = revenue_usd_micros, basis_base_micros = revenue_usd_micros');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commissions', (t) => {
    for (const c of [
      'commission_basis',
      'basis_precision',
      'basis_gross_micros',
      'basis_tax_micros',
      'basis_store_fee_micros',
      'basis_base_micros',
    ])
      t.dropColumn(c);
  });
  await knex.schema.alterTable('purchase_events', (t) => {
    t.dropColumn('store_fee_fraction');
    t.dropColumn('tax_fraction');
  });
  await knex.schema.alterTable('apps', (t) => {
    t.dropColumn('apple_small_business_program');
    t.dropColumn('google_play_fee_tier_enrolled');
  });
  await knex.schema.alterTable('campaigns', (t) => t.dropColumn('commission_basis'));
}
