// Milestone bonus rules of a campaign (CONTRACT.md "Milestone bonus rules"). A save replaces the campaign's list
// matched by threshold: the same threshold keeps its rule (id) and takes the new name and amount (awards already
// earned keep theirs), a threshold no longer listed is deactivated, never deleted (awards reference it), a new one
// is inserted, and a threshold that comes back revives its old rule, so nobody earns it twice. Creators already
// past a saved threshold are awarded in the same transaction, under the organization lock that every production
// earn takes: an earn committed before the save is counted by it, an earn after it sees the new rules.
import type { Knex } from 'knex';
import type { BonusRule } from '../lib/bonus-rules.js';
import { awardReachedMilestones } from './bonus-awards-writes.js';
import { lockOrganization } from './wallet-ledger-writes.js';

export interface BonusRuleView {
  id: string;
  threshold_conversions: number;
  bonus_usd: number;
  name: string;
}

/**
 * The active rules of the campaign row `campaigns` in scope, as one JSON column `bonus_rules` (threshold order,
 * `bonus_usd` in USD), so a list of campaigns reads its rules in the same statement.
 */
export function bonusRulesColumn(db: Knex): Knex.Raw {
  return db.raw(`coalesce((select json_agg(json_build_object('id', r.id, 'threshold_conversions', r.threshold_conversions,
    'bonus_usd', r.bonus_micros / 1000000.0, 'name', r.name) order by r.threshold_conversions)
    from bonus_rules r where r.campaign_id = campaigns.id and r.active), '[]'::json) as bonus_rules`);
}

/** Whether the campaign has an active rule, as a column `as` of a statement the caller sends anyway. */
export function activeBonusRulesColumn(db: Knex, campaignId: string, as: string): Knex.Raw {
  return db.raw('exists (select 1 from bonus_rules r where r.campaign_id = ? and r.active) as ??', [campaignId, as]);
}

/** Replaces the campaign's rules (see above) and awards the creators already past them; returns the new awards. */
export async function saveBonusRules(trx: Knex.Transaction, campaignId: string, rules: readonly BonusRule[]): Promise<number> {
  const campaign = await trx('campaigns').where('id', campaignId).first<{ org_id: string } | undefined>('org_id');
  if (!campaign) return 0;
  await lockOrganization(trx, campaign.org_id);
  const existing = await trx('bonus_rules')
    .where('campaign_id', campaignId)
    .forUpdate()
    .orderBy([{ column: 'active', order: 'desc' }, { column: 'updated_at', order: 'desc' }, { column: 'id' }])
    .select<{ id: string; threshold_conversions: number; active: boolean; name: string; bonus_micros: number }[]>(
      'id',
      'threshold_conversions',
      'active',
      'name',
      'bonus_micros',
    );
  const listed = new Set(rules.map((r) => r.thresholdConversions));
  // Deactivated first: an active threshold is unique per campaign.
  const dropped = existing.filter((r) => r.active && !listed.has(r.threshold_conversions)).map((r) => r.id);
  if (dropped.length > 0) await trx('bonus_rules').whereIn('id', dropped).update({ active: false });
  for (const rule of rules) {
    const columns = { name: rule.name, bonus_micros: rule.bonusMicros, active: true };
    // The active rule of that threshold, else the latest one deactivated (listed first).
    const same = existing.find((r) => r.threshold_conversions === rule.thresholdConversions);
    const unchanged = same?.active && same.name === rule.name && Number(same.bonus_micros) === rule.bonusMicros;
    if (same && !unchanged) await trx('bonus_rules').where('id', same.id).update(columns);
    else if (!same)
      await trx('bonus_rules').insert({ ...columns, campaign_id: campaignId, threshold_conversions: rule.thresholdConversions });
  }
  return awardReachedMilestones(trx, { campaignId });
}
