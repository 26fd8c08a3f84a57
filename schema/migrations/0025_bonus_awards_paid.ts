import type { Knex } from 'knex';

// Milestone awards end (issue 24): a payout run pays approved awards beside payable commissions.
//
// * bonus_awards.payout_id: the payout (one creator in one run) that paid the award; set with status `paid`.
// * payouts.award_count / awards_micros: the award lines of the payout. gross_micros now holds commissions AND
//   awards (what the creator earned), so net = gross - clawbacks netted still holds; awards carry no platform fee.
// * bonus rules: a rule's threshold is unique among a campaign's active rules already (0003); a rule that a campaign
//   update drops is deactivated, never deleted (awards reference it).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payouts', (t) => {
    t.integer('award_count').notNullable().defaultTo(0);
    t.bigInteger('awards_micros').notNullable().defaultTo(0);
    t.check('award_count >= 0 and awards_micros >= 0 and awards_micros <= gross_micros', [], 'payouts_awards_check');
  });
  await knex.schema.alterTable('bonus_awards', (t) => {
    t.text('payout_id').nullable().references('payouts.id').onDelete('RESTRICT');
    t.index(['payout_id'], 'bonus_awards_payout_idx');
    t.check("payout_id is null or status = 'paid'", [], 'bonus_awards_payout_check');
  });
  // A payout run reads an organization's approved awards.
  await knex.raw("create index bonus_awards_org_approved_idx on bonus_awards (org_id, earned_at) where status = 'approved'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index bonus_awards_org_approved_idx');
  await knex.schema.alterTable('bonus_awards', (t) => {
    t.dropChecks(['bonus_awards_payout_check']);
    t.dropIndex(['payout_id'], 'bonus_awards_payout_idx');
    t.dropColumn('payout_id');
  });
  await knex.schema.alterTable('payouts', (t) => {
    t.dropChecks(['payouts_awards_check']);
    t.dropColumn('awards_micros');
    t.dropColumn('award_count');
  });
}
