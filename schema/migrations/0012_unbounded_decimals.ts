import type { Knex } from 'knex';

// knex's bare decimal() is numeric(8,2): a local price of IDR 1,500,000 or an FX rate of 0.0000612 does not fit.
// Local prices, take-home shares and exchange rates are exact decimals of any size.
const COLUMNS: [string, string][] = [
  ['purchase_events', 'price_in_purchased_currency'],
  ['purchase_events', 'takehome_percentage'],
  ['purchase_events', 'fx_rate'],
  ['commissions', 'fx_rate'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, column] of COLUMNS) await knex.raw(`alter table ${table} alter column ${column} type numeric`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of COLUMNS) await knex.raw(`alter table ${table} alter column ${column} type numeric(8,2)`);
}
