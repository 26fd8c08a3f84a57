// GET /api/agent/apps/{app_id}/integration-status: the spec's 8-step checklist (decided in lib/integration-checklist.ts),
// whether the app is live, the next action per open step, the production attributed conversion count and the
// health of each active campaign.
import { findApp, type AgentAppRow } from '../../db/apps.js';
import { listCampaignHealth, readIntegrationFacts, type CampaignHealthRow } from '../../db/integration.js';
import { evaluateChecklist } from '../../lib/integration-checklist.js';
import { NotFoundError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import { appView } from './apps.js';
import { visibleTo } from './principal.js';

export async function integrationStatusHandler(ctx: AppContext): Promise<void> {
  ctx.body = await integrationStatusOf(ctx, visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App'));
}

/** The answer for an app the caller may see (also the dashboard's setup page: one computation for both). */
export async function integrationStatusOf(ctx: AppContext, app: AgentAppRow) {
  const [facts, campaigns] = await Promise.all([readIntegrationFacts(ctx.deps.db, app.id), listCampaignHealth(ctx.deps.db, app.id)]);
  if (!facts) throw new NotFoundError('App not found');
  const { live, checklist, next_actions } = evaluateChecklist(facts, appView(ctx, app).webhook_url);
  return {
    app_id: app.id,
    live,
    checklist,
    next_actions,
    attributed_conversion_count: facts.attributedConversions.production,
    sandbox_attributed_conversion_count: facts.attributedConversions.sandbox,
    campaign_health: { active_campaigns: campaigns.length, campaigns: campaigns.map(campaignHealth) },
  };
}

/** Counts plus what stands out: a campaign nobody can share yet, or links nobody clicked. */
function campaignHealth(c: CampaignHealthRow) {
  const warnings = [
    ...(c.creators === 0 ? [`no creators yet: invite one (POST /api/agent/campaigns/${c.campaign_id}/invite) or share the join link (GET /api/agent/campaigns/${c.campaign_id}/join-link)`] : []),
    ...(c.creators > 0 && c.clicks === 0 ? ['no link clicks yet'] : []),
  ];
  return { ...c, healthy: warnings.length === 0, warnings };
}
