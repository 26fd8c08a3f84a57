// GET /api/agent/campaigns (optional ?app_id= and ?status=) and GET /api/agent/campaigns/{campaign_id}. Every agent
// campaign answer carries `stats`, the lifetime production counters (db/analytics.ts), read for a whole list at once.
import { lifetimeCampaignStats } from '../../db/analytics.js';
import { findCampaign, listCampaignsInOrgs, type AgentCampaignRow } from '../../db/campaigns.js';
import { CAMPAIGN_STATUSES } from '../../schema/types.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { campaignI18nView } from './localize.js';
import { orgIdsOf, visibleTo } from './principal.js';

export function campaignView(ctx: AppContext, c: AgentCampaignRow) {
  const { i18n: _i18n, ...rest } = c;
  return {
    ...rest,
    commission_percentage: Number(c.commission_percentage),
    join_url: `${ctx.deps.config.DASHBOARD_URL}/join/${c.id}`,
    i18n: campaignI18nView(c),
  };
}

/** The campaigns' answers with their `stats` (one statement for the whole list, never one per campaign). */
async function campaignAnswers(ctx: AppContext, campaigns: readonly AgentCampaignRow[]) {
  const stats = await lifetimeCampaignStats(ctx.deps.db, campaigns);
  return campaigns.map((c) => ({
    ...campaignView(ctx, c),
    stats: stats.get(c.id)!,
  }));
}

export async function campaignAnswer(ctx: AppContext, campaign: AgentCampaignRow) {
  return (await campaignAnswers(ctx, [campaign]))[0]!;
}

/** The list's filters: REST query parameters and the MCP tool's inputs (one schema, api/agent/endpoints.ts). */
export const listCampaignsQuery = {
  type: 'object',
  properties: {
    app_id: { type: 'string', minLength: 1, maxLength: 64 },
    status: { enum: [...CAMPAIGN_STATUSES] },
  },
} as const;

export async function listCampaignsHandler(ctx: AppContext): Promise<void> {
  const query = inputOf<{ app_id?: string; status?: string }>(ctx);
  const filter = { appId: query.app_id, status: query.status };
  const campaigns = await listCampaignsInOrgs(ctx.deps.db, orgIdsOf(ctx), filter);
  ctx.body = { campaigns: await campaignAnswers(ctx, campaigns), count: campaigns.length };
}

export async function getCampaignHandler(ctx: AppContext): Promise<void> {
  ctx.body = await campaignAnswer(ctx, visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign'));
}
