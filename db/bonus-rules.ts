// Milestone bonus rules of a campaign (CONTRACT.md "Milestone bonus rules"). A save replaces the campaign's list
// matched by threshold: the same threshold keeps its rule (id) and takes the new name and amount (awards already
// earned keep theirs), a threshold no longer listed is deactivated, never deleted (awards reference it), a new one
// is inserted, and a threshold that comes back revives its old rule, so nobody earns it twice. Creators already
// past a saved threshold are awarded in the same transaction, under the organization lock that every production
// earn takes: an earn committed before the save is counted by it, an earn after it sees the new rules.
import type { Knex } from 'knex';

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
