import type { Knex } from 'knex';

// Issue 38, "Attribution without our SDK": a creator's store offer code (../shared/CONTRACT.md "Creator offer codes").
// * offer_codes: what a purchase carries that names a creator without a click: for `ios` the App Store offer's
//   reference name (Apple sends only that, as `offerIdentifier` with `offerType` 3, so one offer per creator); for
//   `android` a Play offer id (`match` = 'offer_id', with its product and base plan) or an offer tag declared exclusive
//   to this creator (`match` = 'offer_tag'). Retired rows keep their value and their uniqueness, like removed creator
//   codes: a past attribution must never become ambiguous because the value was handed to somebody else.
// * user_attributions gains the method `offer_code` and the offer code that bound it.
const METHODS_BEFORE = ['link_param', 'ip_device_match', 'manual_code', 'purchase_code'];
const METHODS_AFTER = [...METHODS_BEFORE, 'offer_code'];

async function attributionMethods(knex: Knex, methods: string[]): Promise<void> {
  await knex.raw('alter table user_attributions drop constraint user_attributions_method_check');
  const list = methods.map((m) => `'${m}'`).join(', ');
  await knex.raw(`alter table user_attributions add constraint user_attributions_method_check check (method in (${list}))`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('offer_codes', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('ofc')"));
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('campaign_id').notNullable();
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    // The creator's membership in the campaign: an attribution by offer code lands on it like one by referral code.
    t.text('creator_code_id').notNullable().references('creator_codes.id').onDelete('CASCADE');
    t.text('platform').notNullable().checkIn(['ios', 'android'], 'offer_codes_platform_check');
    t.text('match').notNullable().checkIn(['reference_name', 'offer_id', 'offer_tag'], 'offer_codes_match_check');
    t.text('value').notNullable();
    // What people type (Apple custom code, Play promo code): builds the redemption link only, never matched.
    t.text('custom_code').nullable();
    t.text('product_id').nullable();
    t.text('base_plan_id').nullable();
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'retired'], 'offer_codes_status_check');
    t.timestamp('retired_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['campaign_id', 'app_id'], 'offer_codes_campaign_app_fk')
      .references(['id', 'app_id'])
      .inTable('campaigns')
      .onDelete('CASCADE');
    t.unique(['app_id', 'platform', 'value'], { indexName: 'offer_codes_app_platform_value_uq' });
    t.index(['campaign_id', 'creator_id'], 'offer_codes_campaign_creator_idx');
    t.check("(platform = 'ios') = (match = 'reference_name')", [], 'offer_codes_match_platform_check');
    t.check("(match = 'offer_id') = (product_id is not null and base_plan_id is not null)", [], 'offer_codes_offer_id_check');
    t.check("(status = 'retired') = (retired_at is not null)", [], 'offer_codes_retired_check');
  });
  await knex.schema.alterTable('user_attributions', (t) => {
    t.text('offer_code_id').nullable().references('offer_codes.id').onDelete('SET NULL');
  });
  await attributionMethods(knex, METHODS_AFTER);
}

export async function down(knex: Knex): Promise<void> {
  await knex('user_attributions').where('method', 'offer_code').update({ method: 'purchase_code' });
  await attributionMethods(knex, METHODS_BEFORE);
  await knex.schema.alterTable('user_attributions', (t) => {
    t.dropColumn('offer_code_id');
  });
  await knex.schema.dropTable('offer_codes');
}
