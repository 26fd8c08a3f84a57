import type { Knex } from 'knex';

// Issue 40: review of suspicious commissions (docs/fraud-signals.md, CONTRACT "Review of suspicious commissions").
//  - commissions.review_state beside the status: null (never raised), 'flagged' (shown, paid as usual), 'held'
//    (reserved, never payable until a person decides), 'approved', 'voided'. A held commission keeps its money
//    status (reserved or unfunded), so the ledger identities, which count live commissions by status, hold as they are.
//  - commission_reviews: one review per commission (a redelivered event raises no second), with the signals and
//    their evidence, and the decision.
//  - campaigns.fraud_signal_actions: per signal off, flag or hold; a signal not named takes the default.
//  - the facts two signals need: the Play Install Referrer's times on the install (click injection), and the
//    address and device a creator joined from (self-referral), kept JOIN_SIGHTING_RETENTION_DAYS (jobs prune it).
const REVIEW_STATES = ['flagged', 'held', 'approved', 'voided'];
// The creator is told of a void in their digest (lib/creator-digest.ts), an item about a commission like a release.
const DIGEST_KINDS_BEFORE = ['commission_payable', 'payout_sent', 'payout_failed', 'payout_reversed'];
const DIGEST_KINDS_AFTER = [...DIGEST_KINDS_BEFORE, 'commission_not_confirmed'];

async function digestKinds(knex: Knex, kinds: string[], commissionKinds: string[]): Promise<void> {
  const list = (l: string[]) => l.map((k) => `'${k}'`).join(', ');
  await knex.raw('alter table creator_digest_items drop constraint creator_digest_items_kind_check');
  await knex.raw(`alter table creator_digest_items add constraint creator_digest_items_kind_check check (kind in (${list(kinds)}))`);
  await knex.raw('alter table creator_digest_items drop constraint creator_digest_items_cause_check');
  const aboutCommission = `kind in (${list(commissionKinds)})`;
  await knex.raw(
    `alter table creator_digest_items add constraint creator_digest_items_cause_check ` +
      `check ((${aboutCommission}) = (commission_id is not null) and (not ${aboutCommission}) = (payout_id is not null))`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await digestKinds(knex, DIGEST_KINDS_AFTER, ['commission_payable', 'commission_not_confirmed']);
  await knex.schema.alterTable('commissions', (t) => {
    t.text('review_state').nullable();
  });
  await knex.raw(
    `alter table commissions add constraint commissions_review_state_check ` +
      `check (review_state is null or review_state in (${REVIEW_STATES.map((s) => `'${s}'`).join(', ')}))`,
  );
  await knex.raw("create index commissions_held_idx on commissions (org_id) where review_state = 'held'");

  await knex.schema.createTable('commission_reviews', (t) => {
    t.text('id').primary().defaultTo(knex.raw("svc_id('rev')"));
    t.text('commission_id').notNullable().unique().references('commissions.id').onDelete('RESTRICT');
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('campaign_id').notNullable().references('campaigns.id').onDelete('RESTRICT');
    t.text('creator_id').notNullable().references('creators.id').onDelete('RESTRICT');
    // 'hold': the commission waits for the decision; 'flag': shown for a look, paid as usual.
    t.text('action').notNullable().checkIn(['flag', 'hold']);
    t.text('status').notNullable().defaultTo('open').checkIn(['open', 'approved', 'voided']);
    // [{signal, evidence, weak?}]
    t.jsonb('signals').notNullable();
    // Where the review was raised: at the earn, or again before the commission became payable.
    t.text('raised_at_step').notNullable().defaultTo('earn').checkIn(['earn', 'release']);
    // When a flag became a hold (the release step's evaluation): news for the owners' digest like a new review.
    t.timestamp('escalated_at', { useTz: true }).nullable();
    t.text('decided_by').nullable();
    t.text('note').nullable();
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id', 'status', 'created_at']);
  });
  await knex.raw(
    'create trigger commission_reviews_touch_updated_at before update on commission_reviews ' +
      'for each row execute function svc_touch_updated_at()',
  );

  await knex.schema.alterTable('campaigns', (t) => {
    t.jsonb('fraud_signal_actions').notNullable().defaultTo(knex.raw("'{}'::jsonb"));
  });
  await knex.schema.alterTable('installs', (t) => {
    // Google Play Install Referrer API times (null: not reported, or not Android).
    t.timestamp('referrer_click_at', { useTz: true }).nullable();
    t.timestamp('install_begin_at', { useTz: true }).nullable();
    t.timestamp('install_begin_server_at', { useTz: true }).nullable();
    // The request came with X-Forwarded-For while TRUST_PROXY was off: `ip` is the proxy's, and IP signals say so.
    t.boolean('ip_via_untrusted_proxy').notNullable().defaultTo(false);
  });
  // The review queue says when IP signals are off for recent installs (few rows: only those marked).
  await knex.raw('create index installs_untrusted_proxy_idx on installs (app_id, created_at) where ip_via_untrusted_proxy');
  // The leaked-code signal reads a code's redemptions of the last days at every earn.
  await knex.raw('create index user_attributions_code_attributed_idx on user_attributions (creator_code_id, attributed_at)');
  await knex.schema.alterTable('creator_codes', (t) => {
    t.text('join_ip').nullable();
    t.text('join_user_agent').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('creator_digest_items').where('kind', 'commission_not_confirmed').delete();
  await digestKinds(knex, DIGEST_KINDS_BEFORE, ['commission_payable']);
  await knex.raw('drop index user_attributions_code_attributed_idx');
  await knex.schema.alterTable('creator_codes', (t) => {
    t.dropColumn('join_ip');
    t.dropColumn('join_user_agent');
  });
  await knex.schema.alterTable('installs', (t) => {
    t.dropColumn('referrer_click_at');
    t.dropColumn('install_begin_at');
    t.dropColumn('install_begin_server_at');
    t.dropColumn('ip_via_untrusted_proxy');
  });
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('fraud_signal_actions');
  });
  await knex.schema.dropTable('commission_reviews');
  await knex.schema.alterTable('commissions', (t) => {
    t.dropColumn('review_state');
  });
}
