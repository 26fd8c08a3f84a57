// GET /api/agent/campaigns (optional ?app_id= and ?status=) and GET /api/agent/campaigns/{campaign_id}.
import { findCampaign, listCampaignsInOrgs, type AgentCampaignRow } from '../../db/campaigns.js';
import type { AppContext } from '../context.js';
import { campaignI18nView } from './localize.js';
import { orgIdsOf, visibleTo } from './principal.js';

export function campaignView(ctx: AppContext, c: AgentCampaignRow) {
  const { i18n: _i18n, ...rest } = c;
  return { ...rest, commission_percentage: Number(c.commission_percentage), join_url: `${ctx.deps.config.DASHBOARD_URL}/join/${c.id}`, i18n: campaignI18nView(c) };
}

export async function listCampaignsHandler(ctx: AppContext): Promise<void> {
  const filter = { appId: typeof ctx.query.app_id === 'string' ? ctx.query.app_id : undefined, status: typeof ctx.query.status === 'string' ? ctx.query.status : undefined };
  const campaigns = await listCampaignsInOrgs(ctx.deps.db, orgIdsOf(ctx), filter);
  ctx.body = { campaigns: campaigns.map((c) => campaignView(ctx, c)), count: campaigns.length };
}

export async function getCampaignHandler(ctx: AppContext): Promise<void> {
  ctx.body = campaignView(ctx, visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign'));
}
