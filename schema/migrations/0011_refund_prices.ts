import type { Knex } from 'knex';

// The provider reports refunds with a negative USD price; the event log keeps the price as sent.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table purchase_events drop constraint purchase_events_price_check');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'alter table purchase_events add constraint ' +
      'purchase_events_price_check check (price_usd_micros is null or price_usd_micros >= 0) not valid',
  );
}
