// Writes of campaigns (reads stay in db/campaigns.ts): creating one, its terms, its status, its localized copy.
import type { Knex } from 'knex';
import { PATCHABLE } from './campaigns.js';
import type { CampaignStatus } from '../schema/types.js';
import { saveBonusRules } from './bonus-rules-writes.js';
import { NewCampaign, CampaignTermsPatch, CampaignCopy } from './campaigns.js';

export async function createCampaign(db: Knex, c: NewCampaign): Promise<{ id: string; status: CampaignStatus }> {
  if (c.bonusRules?.length) {
    return db.transaction(async (trx) => {
      const created = await createCampaign(trx, { ...c, bonusRules: undefined });
      await saveBonusRules(trx, created.id, c.bonusRules!);
      return created;
    });
  }
  const status = c.status ?? 'draft';
  const [row] = await db('campaigns')
    .insert({
      app_id: c.appId,
      org_id: c.orgId,
      name: c.name,
      description: c.description ?? null,
      campaign_type: c.campaignType,
      commission_percentage: c.commissionPercentage,
      ...(c.holdingPeriodDays !== undefined ? { holding_period_days: c.holdingPeriodDays } : {}),
      ...(c.commissionBasis !== undefined ? { commission_basis: c.commissionBasis } : {}),
      status,
      activated_at: status === 'active' ? db.fn.now() : null,
    })
    .returning<{ id: string; status: CampaignStatus }[]>(['id', 'status']);
  return row!;
}

/** Applies the listed terms (other keys are ignored); returns whether the campaign exists. */
export async function updateCampaignTerms(db: Knex, campaignId: string, patch: CampaignTermsPatch): Promise<boolean> {
  if (patch.bonus_rules) {
    const rules = patch.bonus_rules;
    return db.transaction(async (trx) => {
      const found = await updateCampaignTerms(trx, campaignId, { ...patch, bonus_rules: undefined });
      if (found) await saveBonusRules(trx, campaignId, rules);
      return found;
    });
  }
  const changes = Object.fromEntries(PATCHABLE.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]));
  if (Object.keys(changes).length === 0) return (await db('campaigns').where('id', campaignId).first('id')) !== undefined;
  return (await db('campaigns').where('id', campaignId).update(changes)) === 1;
}

/** Moves the campaign to `status` (stamping when it happened); returns whether it changed. */
export async function setCampaignStatus(db: Knex, campaignId: string, status: 'active' | 'paused'): Promise<boolean> {
  const stamp = status === 'active' ? { activated_at: db.fn.now() } : { paused_at: db.fn.now() };
  return (
    (await db('campaigns')
      .where('id', campaignId)
      .whereNot('status', status)
      .update({ status, ...stamp })) === 1
  );
}

/**
 * Under the campaign's row lock, `patchFor` derives the locales to merge into `i18n` from the current copy (null:
 * nothing to write), so the recorded source hash is the hash of the text the translation was made against.
 */
export async function mergeCampaignI18n(
  db: Knex,
  campaignId: string,
  patchFor: (current: CampaignCopy) => Record<string, unknown> | null,
): Promise<CampaignCopy | undefined> {
  return db.transaction(async (trx) => {
    const current = await trx('campaigns')
      .where('id', campaignId)
      .forUpdate()
      .first<CampaignCopy | undefined>('name', 'description', 'i18n');
    if (!current) return undefined;
    const patch = patchFor(current);
    if (!patch) return current;
    const [updated] = await trx('campaigns')
      .where('id', campaignId)
      .update({ i18n: trx.raw('i18n || ?::jsonb', [JSON.stringify(patch)]) }, ['name', 'description', 'i18n']);
    return updated as CampaignCopy;
  });
}

/** A campaign's fraud-signal settings (lib/fraud-signals/decide.ts: each signal named off, flag or hold; the rest default). */
export async function saveFraudSignalActions(db: Knex, campaignId: string, actions: Record<string, string>): Promise<boolean> {
  return (
    (await db('campaigns')
      .where('id', campaignId)
      .update({ fraud_signal_actions: JSON.stringify(actions) })) === 1
  );
}
