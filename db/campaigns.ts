// Campaigns: creation, the agent-visible columns (always filtered by the granted organizations), their terms
// (name, description, commission, milestone bonus rules) and status.
import type { Knex } from 'knex';
import { preparedRows } from './prepared.js';
import type { BonusRule } from '../lib/bonus-rules.js';
import type { CampaignType, CampaignStatus, CommissionBasis } from '../schema/types.js';
import { bonusRulesColumn, type BonusRuleView } from './bonus-rules.js';

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
  /** Default gross (the column's default). */
  commissionBasis?: CommissionBasis;
  /** Milestone bonus rules, written with the campaign. */
  bonusRules?: readonly BonusRule[];
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
  commission_basis?: CommissionBasis;
  /** Replaces the milestone rules (db/bonus-rules.ts), in the same transaction as the terms. */
  bonus_rules?: readonly BonusRule[];
}

// A new holding period applies to commissions earned from then on; earned ones keep their payable_at. A new basis
// applies to events after the change; earned commissions keep theirs (a refund uses the stored one).
export const PATCHABLE: readonly (keyof CampaignTermsPatch)[] = [
  'name',
  'description',
  'commission_percentage',
  'holding_period_days',
  'commission_basis',
];

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
  'commission_basis',
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

/** A campaign's fraud-signal settings as stored (read with lib/fraud-signals' signalActionsOf); not in the agent's view. */
export async function findFraudSignalActions(db: Knex, campaignId: string): Promise<unknown> {
  const row = await db('campaigns').where('id', campaignId).first<{ fraud_signal_actions: unknown } | undefined>('fraud_signal_actions');
  return row?.fraud_signal_actions ?? {};
}

export interface CampaignCopy {
  name: unknown;
  description: unknown;
  i18n: unknown;
}

/**
 * A campaign's commission terms and whether any milestone could be reached, with its app's store fee settings (an
 * estimated proceeds basis reads them, lib/commission-basis.ts).
 */
export interface CampaignTerms {
  commission_percentage: string;
  holding_period_days: number;
  has_bonus_rules: boolean;
  /** Absent from terms read before the basis existed (recorded activity results): gross. */
  commission_basis?: CommissionBasis;
  apple_small_business_program?: boolean;
  google_play_fee_tier_enrolled?: boolean;
  /** Per fraud signal off, flag or hold (lib/fraud-signals/decide.ts); absent from terms recorded before it existed. */
  fraud_signal_actions?: Record<string, string>;
}

/** The terms in one read (the purchase activity's hot path). */
export async function findCampaignTerms(db: Knex, campaignId: string): Promise<CampaignTerms> {
  const [terms] = await preparedRows<CampaignTerms>(
    db,
    db('campaigns as k')
      .join('apps as a', 'a.id', 'k.app_id')
      .where('k.id', campaignId)
      .limit(1)
      .select(
        'k.commission_percentage',
        'k.holding_period_days',
        'k.commission_basis',
        'k.fraud_signal_actions',
        'a.apple_small_business_program',
        'a.google_play_fee_tier_enrolled',
        db.raw('exists (select 1 from bonus_rules r where r.campaign_id = k.id and r.active) as has_bonus_rules'),
      ),
  );
  return terms!;
}

export async function isCampaignActive(db: Knex, campaignId: string): Promise<boolean> {
  return (await db('campaigns').where({ id: campaignId, status: 'active' }).first('id')) !== undefined;
}

/**
 * What the proceeds basis needs to know of a campaign's app (actions/campaigns.ts): whether it has recorded purchases
 * its own server reported (POST /api/webhooks/purchase, source `direct`).
 */
export async function findBasisSupport(
  db: Knex,
  of: { appId: string } | { campaignId: string },
): Promise<{ takes_server_reports: boolean } | undefined> {
  const q = db('apps as a');
  if ('campaignId' in of) void q.join('campaigns as k', 'k.app_id', 'a.id').where('k.id', of.campaignId);
  else void q.where('a.id', of.appId);
  return q.first<{ takes_server_reports: boolean } | undefined>(
    db.raw("exists (select 1 from purchase_events p where p.app_id = a.id and p.source = 'direct') as takes_server_reports"),
  );
}
