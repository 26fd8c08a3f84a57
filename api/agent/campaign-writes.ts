// PATCH /api/agent/campaigns/{campaign_id} (terms and milestone bonus rules, not status), POST
// /api/agent/apps/{app_id}/campaigns (created as draft, optionally with bonus rules) and POST /api/agent/campaigns/{campaign_id}/status
// (activation needs the minimum escrow, else 402 naming the top-up-link endpoint; pausing is always allowed and stops the campaign's codes
// from attributing).
import { addCampaign, changeCampaignStatus, updateCampaign as updateCampaignAction, type CampaignUpdate } from '../../actions/campaigns.js';
import { findApp } from '../../db/apps.js';
import { findCampaign } from '../../db/campaigns.js';
import { type BonusRuleInput } from '../../lib/bonus-rules.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { AGENT_EDGE } from './agent-edge.js';
import { forgetAppCaches } from './app-caches.js';
import { campaignAnswer } from './campaigns.js';
import { BONUS_RULES, CAMPAIGN_FIELDS, CAMPAIGN_TYPE, type AgentCampaignType } from './field-schemas.js';
import { visibleTo } from './principal.js';

export const updateCampaignBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...CAMPAIGN_FIELDS, bonus_rules: BONUS_RULES },
} as const;

export const createCampaignBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'commission_percentage'],
  properties: { ...CAMPAIGN_FIELDS, campaign_type: CAMPAIGN_TYPE, bonus_rules: BONUS_RULES },
} as const;

export const campaignStatusBody = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { enum: ['active', 'paused'] } },
} as const;

interface NewCampaignInput {
  name: string;
  description?: string | null;
  commission_percentage: number;
  holding_period_days?: number;
  commission_basis?: 'gross' | 'proceeds';
  campaign_type: AgentCampaignType;
  bonus_rules?: BonusRuleInput[];
}

async function visibleCampaign(ctx: AppContext) {
  return visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
}

/**
 * The campaign update of PATCH /campaigns/{id} (and of the dashboard's bonus-rules editor) on a campaign the caller
 * may see, with a body valid against updateCampaignBody: the rules' own checks (422) run before anything is written.
 */
export async function updateCampaign(ctx: AppContext, campaign: { id: string; app_id: unknown }, update: CampaignUpdate): Promise<void> {
  await updateCampaignAction(ctx.deps, { campaignId: campaign.id, update });
  forgetAppCaches(ctx, campaign.app_id as string);
}

export async function updateCampaignHandler(ctx: AppContext): Promise<void> {
  await updateCampaign(ctx, await visibleCampaign(ctx), inputOf<CampaignUpdate>(ctx));
  ctx.body = await campaignAnswer(ctx, await visibleCampaign(ctx));
}

export async function createCampaignHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const b = inputOf<NewCampaignInput>(ctx);
  const { id } = await addCampaign(ctx.deps, {
    appId: app.id,
    orgId: app.org_id,
    name: b.name,
    description: b.description ?? null,
    campaignType: b.campaign_type,
    commissionPercentage: b.commission_percentage,
    holdingPeriodDays: b.holding_period_days,
    commissionBasis: b.commission_basis,
    status: 'draft',
    bonusRules: b.bonus_rules,
  });
  ctx.status = 201;
  ctx.body = await campaignAnswer(ctx, visibleTo(ctx, await findCampaign(ctx.deps.db, id), 'Campaign'));
}

export async function setCampaignStatusHandler(ctx: AppContext): Promise<void> {
  const campaign = await visibleCampaign(ctx);
  const { status } = inputOf<{ status: 'active' | 'paused' }>(ctx);
  const changed = await changeCampaignStatus({ ...ctx.deps, edge: AGENT_EDGE }, { campaign, status });
  if (changed) forgetAppCaches(ctx, campaign.app_id as string);
  ctx.body = { ...(await campaignAnswer(ctx, await visibleCampaign(ctx))), changed };
}
