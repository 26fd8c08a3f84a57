import type { Knex } from 'knex';

// Issue 38: a conversion attributed by a creator's store offer code (actions/purchase-event/attribution.ts). 0050 let
// user_attributions say so; conversions, which carry the attribution every commission and live event reads, gain the
// method `offer_code` and the offer code that bound it (kept when the code is retired: past attributions stand).
const METHODS_BEFORE = ['link_param', 'ip_device_match', 'manual_code', 'purchase_code'];
const METHODS_AFTER = [...METHODS_BEFORE, 'offer_code'];

async function conversionMethods(knex: Knex, methods: string[]): Promise<void> {
  await knex.raw('alter table conversions drop constraint conversions_method_check');
  const list = methods.map((m) => `'${m}'`).join(', ');
  await knex.raw(
    `alter table conversions add constraint conversions_method_check check (attribution_method is null or attribution_method in (${list}))`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversions', (t) => {
    t.text('offer_code_id').nullable().references('offer_codes.id').onDelete('SET NULL');
  });
  await conversionMethods(knex, METHODS_AFTER);
}

export async function down(knex: Knex): Promise<void> {
  await knex('conversions').where('attribution_method', 'offer_code').update({ attribution_method: 'purchase_code' });
  await conversionMethods(knex, METHODS_BEFORE);
  await knex.schema.alterTable('conversions', (t) => {
    t.dropColumn('offer_code_id');
  });
}
