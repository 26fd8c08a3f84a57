// Milestone bonuses: when a creator's production, non-refunded conversions in a campaign reach a rule's threshold,
// an award is created once (unique per rule and creator) and waits in `earned` for review.
import type { Knex } from 'knex';

export async function countQualifyingConversions(trx: Knex.Transaction, campaignId: string, creatorId: string): Promise<number> {
  const row = await trx('conversions').where({ campaign_id: campaignId, creator_id: creatorId, environment: 'PRODUCTION', attributed: true })
    .whereNot('status', 'refunded')
    .whereExists((q) => { void q.select(trx.raw('1')).from('commissions as c').whereRaw('c.conversion_id = conversions.id').andWhere('c.kind', 'earn').andWhereNot('c.status', 'reversed'); })
    .count<{ count: string }[]>('* as count').first();
  return Number((row)?.count ?? 0);
}

/** Creates the awards whose threshold the creator has now reached; returns how many were new. */
export async function awardReachedMilestones(trx: Knex.Transaction, c: { campaignId: string; creatorId: string; orgId: string }): Promise<number> {
  const rules = await trx('bonus_rules').where({ campaign_id: c.campaignId, active: true })
    .select<{ id: string; threshold_conversions: number; bonus_micros: number }[]>('id', 'threshold_conversions', 'bonus_micros');
  if (rules.length === 0) return 0;
  const progress = await countQualifyingConversions(trx, c.campaignId, c.creatorId);
  let created = 0;
  for (const rule of rules.filter((r) => progress >= r.threshold_conversions)) {
    const rows = await trx('bonus_awards').insert({
      bonus_rule_id: rule.id, campaign_id: c.campaignId, creator_id: c.creatorId, org_id: c.orgId, amount_micros: rule.bonus_micros,
      threshold_conversions: rule.threshold_conversions, progress_count: progress,
    }).onConflict(['bonus_rule_id', 'creator_id']).ignore().returning('id');
    created += rows.length;
  }
  return created;
}
