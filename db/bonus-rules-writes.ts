// Writes of a campaign's bonus rules (reads stay in db/bonus-rules.ts).
import type { Knex } from 'knex';
import type { BonusRule } from '../lib/bonus-rules.js';
import { awardReachedMilestones } from './bonus-awards-writes.js';
import { lockOrganization } from './wallet-ledger-writes.js';

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
