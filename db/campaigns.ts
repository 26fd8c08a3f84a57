// Campaigns: creation, the agent-visible columns (always filtered by the granted organizations), their terms
// (name, description, commission, milestone bonus rules) and status.
import type { Knex } from 'knex';
import { preparedRows } from './prepared.js';
import type { BonusRule } from '../lib/bonus-rules.js';
import type { CampaignType, CampaignStatus } from '../schema/types.js';
import { bonusRulesColumn, saveBonusRules, type BonusRuleView } from './bonus-rules.js';

export interface NewCampaign {
  appId: string;
  orgId: string;
  name: string;
  description?: string | null;
  campaignType: CampaignType;
  commissionPercentage: number;
  status?: CampaignStatus;
  /** Default 30 (the column's default). */
  holdingPeriodDays?: number;
  /** Milestone bonus rules, written with the campaign. */
  bonusRules?: readonly BonusRule[];
}

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
      status,
      activated_at: status === 'active' ? db.fn.now() : null,
    })
    .returning<{ id: string; status: CampaignStatus }[]>(['id', 'status']);
  return row!;
}

export interface PublicCampaign {
  id: string;
  name: string;
  description: string | null;
  commission_percentage: number;
}

/** Active public campaigns of an app (GET /sdk/campaigns): what an app may show in a "creators" screen. */
export async function listActivePublicCampaigns(db: Knex, appId: string): Promise<PublicCampaign[]> {
  const rows = await db('campaigns')
    .where({ app_id: appId, status: 'active', campaign_type: 'public' })
    .orderBy('created_at', 'asc')
    .select<{ id: string; name: string; description: string | null; commission_percentage: string }[]>(
      'id',
      'name',
      'description',
      'commission_percentage',
    );
  return rows.map((r) => ({ ...r, commission_percentage: Number(r.commission_percentage) }));
}

export interface CampaignTermsPatch {
  name?: string;
  description?: string | null;
  commission_percentage?: number;
  holding_period_days?: number;
  /** Replaces the milestone rules (db/bonus-rules.ts), in the same transaction as the terms. */
  bonus_rules?: readonly BonusRule[];
}

// A new holding period applies to commissions earned from then on; earned ones keep their payable_at.
const PATCHABLE: readonly (keyof CampaignTermsPatch)[] = ['name', 'description', 'commission_percentage', 'holding_period_days'];

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

/** The oldest campaign of an app with this exact name, archived ones aside (provision matches campaigns by name). */
export async function findCampaignByName(db: Knex, appId: string, name: string): Promise<{ id: string; status: string } | undefined> {
  return db('campaigns')
    .where({ app_id: appId, name })
    .whereNot('status', 'archived')
    .orderBy('created_at')
    .orderBy('id')
    .first<{ id: string; status: string } | undefined>('id', 'status');
}

const CAMPAIGN_COLUMNS = [
  'id',
  'app_id',
  'org_id',
  'name',
  'description',
  'campaign_type',
  'status',
  'commission_percentage',
  'holding_period_days',
  'activated_at',
  'paused_at',
  'created_at',
  'updated_at',
  'i18n',
] as const;

export type AgentCampaignRow = Record<(typeof CAMPAIGN_COLUMNS)[number], unknown> & {
  id: string;
  org_id: string;
  commission_percentage: string;
} & { bonus_rules: BonusRuleView[] };

export async function listCampaignsInOrgs(
  db: Knex,
  orgIds: readonly string[],
  filter: { appId?: string; status?: string } = {},
): Promise<AgentCampaignRow[]> {
  if (orgIds.length === 0) return [];
  const q = db('campaigns').whereIn('org_id', orgIds).orderBy('created_at');
  if (filter.appId) void q.where('app_id', filter.appId);
  if (filter.status) void q.where('status', filter.status);
  return q.select<AgentCampaignRow[]>([...CAMPAIGN_COLUMNS, bonusRulesColumn(db)]);
}

export async function findCampaign(db: Knex, campaignId: string): Promise<AgentCampaignRow | undefined> {
  return db('campaigns')
    .where('id', campaignId)
    .first<AgentCampaignRow | undefined>([...CAMPAIGN_COLUMNS, bonusRulesColumn(db)]);
}

export interface CampaignCopy {
  name: unknown;
  description: unknown;
  i18n: unknown;
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

/** A campaign's commission terms and whether any milestone could be reached. */
export interface CampaignTerms {
  commission_percentage: string;
  holding_period_days: number;
  has_bonus_rules: boolean;
}

/** The terms in one read (the purchase activity's hot path). */
export async function findCampaignTerms(db: Knex, campaignId: string): Promise<CampaignTerms> {
  const [terms] = await preparedRows<CampaignTerms>(
    db,
    db('campaigns')
      .where('id', campaignId)
      .limit(1)
      .select(
        'commission_percentage',
        'holding_period_days',
        db.raw('exists (select 1 from bonus_rules r where r.campaign_id = campaigns.id and r.active) as has_bonus_rules'),
      ),
  );
  return terms!;
}

export async function isCampaignActive(db: Knex, campaignId: string): Promise<boolean> {
  return (await db('campaigns').where({ id: campaignId, status: 'active' }).first('id')) !== undefined;
}
