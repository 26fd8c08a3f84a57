// GET /api/agent/apps/{app_id}/integration-status: the spec's 8-step checklist (decided in lib/integration-checklist.ts),
// whether the app is live, the next action per open step (its tool and REST call), the attributed conversions that
// came through the app's real purchase path (any environment; of them, the production ones), the last
// test-integration run (its own field: it completes no step), the health of each active campaign (production), and
// whether purchases can be attributed with no client code through store offer codes (`sdk_less_attribution`,
// lib/sdk-less-attribution.ts; beside the checklist, never part of `live`).
import { findApp, type AgentAppRow } from '../../db/apps.js';
import { listCampaignHealth, readIntegrationFacts, type CampaignHealthRow } from '../../db/integration.js';
import { evaluateChecklist } from '../../lib/integration-checklist.js';
import { evaluateSdkLess } from '../../lib/sdk-less-attribution.js';
import { NotFoundError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { appView } from './apps.js';
import { CLIENT_PATHS } from './client-paths.js';
import { nextAction } from './next-action.js';
import { visibleTo } from './principal.js';

export async function integrationStatusHandler(ctx: AppContext): Promise<void> {
  ctx.body = await integrationStatusOf(ctx, visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App'));
}

/** The answer for an app the caller may see (also the dashboard's setup page: one computation for both). */
export async function integrationStatusOf(ctx: AppContext, app: AgentAppRow) {
  const [facts, campaigns] = await Promise.all([readIntegrationFacts(ctx.deps.db, app.id), listCampaignHealth(ctx.deps.db, app.id)]);
  if (!facts) throw new NotFoundError('App not found');
  const { live, checklist, next_actions } = evaluateChecklist(facts, appView(ctx, app).webhook_url, nextAction, CLIENT_PATHS);
  const sdkLess = evaluateSdkLess(facts, nextAction);
  const tested = facts.lastTestIntegration;
  return {
    app_id: app.id,
    live,
    checklist,
    next_actions: [...next_actions, ...(sdkLess.action ? [sdkLess.action] : [])],
    sdk_less_attribution: sdkLess.status,
    attributed_conversion_count: facts.attributedConversions.realPath,
    production_attributed_conversion_count: facts.attributedConversions.production,
    test_integration: tested ? { last_run_at: new Date(tested.at).toISOString(), passed: tested.attributed } : null,
    campaign_health: { active_campaigns: campaigns.length, campaigns: campaigns.map(campaignHealth) },
  };
}

/** Counts plus what stands out: a campaign nobody can share yet, or links nobody clicked. */
function campaignHealth(c: CampaignHealthRow) {
  const warnings = [
    ...(c.creators === 0
      ? [
          `no creators yet: invite one ` +
            `(${nextAction('svc_invite_creator', { campaign_id: c.campaign_id }).call}) or share the join link ` +
            `(${nextAction('svc_get_join_link', { campaign_id: c.campaign_id }).call})`,
        ]
      : []),
    ...(c.creators > 0 && c.clicks === 0 ? ['no link clicks yet'] : []),
  ];
  return { ...c, healthy: warnings.length === 0, warnings };
}
