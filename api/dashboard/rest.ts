// The dashboard REST (spec surface 4): `/api/apps/*` and `/api/campaigns/*` for the dashboard's pages. Only a
// signed-in browser session is accepted (api/auth/surfaces.ts answers 401 to SDK keys, purchase API keys, webhook
// secrets and agent credentials before routing), every state-changing call needs the session's CSRF token
// (api/auth/csrf.ts: 403), and the handlers are the agent API's own where one exists, so an id of another
// organization is the same 404. Each route takes JSON or the pages' plain forms (api/dashboard/form-reply.ts), and
// each successful change is audited with the user as actor.
import { Router } from '@koa/router';
import { appendAudit } from '../../db/audit-log.js';
import { analyticsOverviewHandler, campaignFunnelHandler, dailyPerformanceHandler, periodQuery } from '../agent/analytics.js';
import { getAppHandler, listAppsHandler } from '../agent/apps.js';
import { updateAppBody, updateAppHandler, regenerateWebhookSecretHandler } from '../agent/app-writes.js';
import { campaignStatusBody, createCampaignBody, createCampaignHandler, setCampaignStatusHandler, updateCampaignBody, updateCampaignHandler } from '../agent/campaign-writes.js';
import { getCampaignHandler, listCampaignsHandler } from '../agent/campaigns.js';
import { integrationStatusHandler } from '../agent/integration-status.js';
import { joinLinkHandler, joinLinkQuery } from '../agent/invitations.js';
import { localizeCampaignBody, localizeCampaignHandler } from '../agent/localize.js';
import { recentEventsHandler, recentEventsQuery } from '../agent/recent-events.js';
import { activateStoreDirectHandler, storePlatformBody, validateStoreCredentialsHandler } from '../agent/store-direct.js';
import { validationStatusHandler } from '../agent/validation-status.js';
import { guard } from '../auth/guard.js';
import type { AppContext, Middleware, RequestState } from '../context.js';
import { validateBody, validateQuery } from '../middleware/validate.js';
import { createAppBody, createAppHandler, regeneratePurchaseKeyHandler, setupHandler } from './app-handlers.js';
import { campaignTopAffiliatesHandler, campaignTopAffiliatesQuery, localizeFormBody } from './campaign-handlers.js';
import { uploadCredentialHandler } from './credential-upload.js';
import { formReply } from './form-reply.js';

type Handler = (ctx: AppContext) => Promise<void>;
export interface DashboardRoute {
  method: 'get' | 'post' | 'patch'; path: string; action: string; handler: Handler; body?: object; query?: object;
  /** Turns the page's form fields into the body (formReply). */
  form?: (fields: Record<string, unknown>) => Record<string, unknown>;
}

export const r = (method: DashboardRoute['method'], path: string, action: string, handler: Handler, more: Partial<DashboardRoute> = {}): DashboardRoute =>
  ({ method, path, action, handler, ...more });

export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [
  r('get', '/api/apps', 'list_apps', listAppsHandler),
  r('post', '/api/apps', 'create_app', createAppHandler, { body: createAppBody }),
  r('get', '/api/apps/:app_id', 'get_app', getAppHandler),
  r('patch', '/api/apps/:app_id', 'update_app', updateAppHandler, { body: updateAppBody }),
  r('get', '/api/apps/:app_id/setup', 'get_setup', setupHandler),
  r('get', '/api/apps/:app_id/integration-status', 'integration_status', integrationStatusHandler),
  r('get', '/api/apps/:app_id/validation-status', 'validation_status', validationStatusHandler),
  r('get', '/api/apps/:app_id/events/recent', 'recent_events', recentEventsHandler, { query: recentEventsQuery }),
  r('post', '/api/apps/:app_id/regenerate-webhook-secret', 'regenerate_webhook_secret', regenerateWebhookSecretHandler),
  r('post', '/api/apps/:app_id/regenerate-purchase-api-key', 'regenerate_purchase_api_key', regeneratePurchaseKeyHandler),
  r('post', '/api/apps/:app_id/credentials', 'upload_credential', uploadCredentialHandler),
  r('post', '/api/apps/:app_id/validate-store-credentials', 'validate_store_credentials', validateStoreCredentialsHandler, { body: storePlatformBody }),
  r('post', '/api/apps/:app_id/activate-store-direct', 'activate_store_direct', activateStoreDirectHandler, { body: storePlatformBody }),
  r('post', '/api/apps/:app_id/campaigns', 'create_campaign', createCampaignHandler, { body: createCampaignBody }),
  r('get', '/api/campaigns', 'list_campaigns', listCampaignsHandler),
  r('get', '/api/campaigns/:campaign_id', 'get_campaign', getCampaignHandler),
  r('patch', '/api/campaigns/:campaign_id', 'update_campaign', updateCampaignHandler, { body: updateCampaignBody }),
  r('post', '/api/campaigns/:campaign_id/status', 'set_campaign_status', setCampaignStatusHandler, { body: campaignStatusBody }),
  // Campaign and analytics pages (issue 17): HTML forms cannot PATCH, so the edit form posts to the same handler.
  r('post', '/api/campaigns/:campaign_id', 'update_campaign', updateCampaignHandler, { body: updateCampaignBody }),
  r('post', '/api/campaigns/:campaign_id/localize', 'localize_campaign', localizeCampaignHandler, { body: localizeCampaignBody, form: localizeFormBody }),
  r('get', '/api/campaigns/:campaign_id/join-link', 'join_link', joinLinkHandler, { query: joinLinkQuery }),
  r('get', '/api/campaigns/:campaign_id/funnel', 'campaign_funnel', campaignFunnelHandler, { query: periodQuery }),
  r('get', '/api/campaigns/:campaign_id/daily-performance', 'daily_performance', dailyPerformanceHandler, { query: periodQuery }),
  r('get', '/api/campaigns/:campaign_id/top-affiliates', 'top_affiliates', campaignTopAffiliatesHandler, { query: campaignTopAffiliatesQuery }),
  r('get', '/api/apps/:app_id/analytics/overview', 'analytics_overview', analyticsOverviewHandler, { query: periodQuery }),
];

function audited(route: DashboardRoute): Middleware {
  return async (ctx, next) => {
    await next();
    const p = ctx.state.principal;
    if (route.method === 'get' || ctx.status >= 400 || p?.kind !== 'user') return;
    const target = Object.values(ctx.params as Record<string, string>)[0] ?? null;
    await appendAudit(ctx.deps.db, {
      orgId: null, actorType: 'user', actorId: p.userId, action: `dashboard.${route.action}`, targetType: route.path, targetId: target,
      requestId: ctx.state.requestId, ip: ctx.state.clientIp,
    });
  };
}

/** A router of dashboard REST routes; other modules serve their own tables through it (api/dashboard/creators-rest.ts). */
export function restRouter(routes: readonly DashboardRoute[]): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  for (const route of routes) {
    const chain: Middleware[] = [guard({ allow: ['user'] })];
    if (route.method !== 'get') chain.push(formReply(route.body, route.form));
    if (route.query) chain.push(validateQuery(route.query));
    if (route.body) chain.push(validateBody(route.body));
    chain.push(audited(route), route.handler);
    router[route.method](route.path, ...chain);
  }
  return router;
}

export const dashboardRestRoutes = (): Router<RequestState, AppContext> => restRouter(DASHBOARD_ROUTES);
