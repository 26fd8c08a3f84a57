// The web surface's table of contents: every page, form post and dashboard REST row served under the dashboard
// (verb, path, handler), mounted by api/app.ts as one router. Pages are preact components (lib/html.tsx); forms post
// without JavaScript; the few browser scripts are files of api/dashboard/browser/. Order matters once: the top-up
// link's own pages come before the generic signed-link pages, which then never see the top-up purpose.
//
// The REST rows (spec surface 4) take only a signed-in session (api/auth/surfaces.ts answers 401 to every other
// credential before routing), need the session's CSRF token on changes, run the agent API's handlers where one
// exists (so another organization's id is the same 404), take JSON or the pages' forms (form-reply.tsx) and audit
// each change with the user as actor (rest.ts). Money, agent keys and teammates are page forms, never REST rows.
import { Router } from '@koa/router';
import { analyticsOverviewHandler, campaignFunnelHandler, dailyPerformanceHandler, periodQuery } from '../agent/analytics.js';
import { getAppHandler, listAppsHandler } from '../agent/apps.js';
import { updateAppBody, updateAppHandler, regenerateWebhookSecretHandler } from '../agent/app-writes.js';
import { campaignStatusBody, createCampaignBody, createCampaignHandler, setCampaignStatusHandler, updateCampaignBody, updateCampaignHandler } from '../agent/campaign-writes.js';
import { getCampaignHandler, listCampaignsHandler } from '../agent/campaigns.js';
import { integrationStatusHandler } from '../agent/integration-status.js';
import { localizeCampaignBody, localizeCampaignHandler } from '../agent/localize.js';
import { recentEventsHandler, recentEventsQuery } from '../agent/recent-events.js';
import { activateStoreDirectHandler, storePlatformBody, validateStoreCredentialsHandler } from '../agent/store-direct.js';
import { validationStatusHandler } from '../agent/validation-status.js';
import { createAppBody, createAppHandler, regeneratePurchaseKeyHandler, setupHandler } from './app-handlers.js';
import { campaignTopAffiliatesHandler, campaignTopAffiliatesQuery, localizeFormBody } from './campaign-handlers.js';
import { uploadCredentialHandler } from './credential-upload.js';
import { listAssetsHandler, listAssetsQuery, setAssetFeaturedBody, setAssetFeaturedHandler } from '../agent/assets.js';
import { listBonusAwardsHandler, listBonusAwardsQuery, reviewBonusAwardBody, reviewBonusAwardHandler } from '../agent/bonus-awards.js';
import { createFreeCodeBody, createFreeCodeHandler, listFreeCodesHandler } from '../agent/free-codes.js';
import { inviteBody, inviteHandler, joinLinkHandler, joinLinkQuery, listAffiliatesHandler, listInvitationsHandler, listInvitationsQuery, withdrawInvitationHandler } from '../agent/invitations.js';
import { assetFileHandler, uploadAssetHandler } from './asset-upload.js';
import { blockFreeCodeBody, blockFreeCodeHandler } from './free-code-block.js';
import { showJoinPage } from '../public/join-page.js';
import type { AppContext, RequestState } from '../context.js';
import { validateQuery } from '../middleware/validate.js';
import * as accounts from './accounts.js';
import * as agents from './agents-page.js';
import { assetsPage } from './assets-page.js';
import { setupStatusPage } from './auto-recharge-page.js';
import { bonusAwardsPage } from './bonus-awards-page.js';
import { analyticsPage } from './analytics-page.js';
import * as campaigns from './campaigns-page.js';
import * as consent from './consent.js';
import { creatorsPage } from './creators-page.js';
import { inviteForm } from './creators-rest.js';
import * as events from './events-page.js';
import { freeCodesPage } from './free-codes-page.js';
import { home } from './home-page.js';
import * as links from './link-pages.js';
import { mountRest, r, type DashboardRoute } from './rest.js';
import * as session from './session.js';
import { setupPage } from './setup-page.js';
import { STATIC_SCRIPTS, staticScript } from './static-assets.js';
import * as team from './team.js';
import * as topup from './topup-pages.js';
import { AUTO_RECHARGE_PATH } from './wallet-auto-recharge.js';
import * as wallet from './wallet-page.js';
import * as payouts from './wallet-payouts.js';

/** Apps, campaigns and their analytics. */
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

/** Creators and invitations, bonus awards, free-access codes and marketing assets (the pages' people and material). */
export const CREATOR_ROUTES: readonly DashboardRoute[] = [
  r('get', '/api/campaigns/:campaign_id/affiliates', 'list_affiliates', listAffiliatesHandler),
  r('post', '/api/campaigns/:campaign_id/invite', 'invite_creator', inviteHandler, { body: inviteBody, form: inviteForm }),
  r('get', '/api/invitations', 'list_invitations', listInvitationsHandler, { query: listInvitationsQuery }),
  r('post', '/api/invitations/:invitation_id/withdraw', 'withdraw_invitation', withdrawInvitationHandler),
  r('get', '/api/bonus-awards', 'list_bonus_awards', listBonusAwardsHandler, { query: listBonusAwardsQuery }),
  r('post', '/api/bonus-awards/:award_id/review', 'review_bonus_award', reviewBonusAwardHandler, { body: reviewBonusAwardBody }),
  r('get', '/api/apps/:app_id/free-codes', 'list_free_codes', listFreeCodesHandler),
  r('post', '/api/apps/:app_id/free-codes', 'create_free_code', createFreeCodeHandler, { body: createFreeCodeBody }),
  r('post', '/api/apps/:app_id/free-codes/:free_code_id/block', 'block_free_code', blockFreeCodeHandler, { body: blockFreeCodeBody }),
  r('get', '/api/apps/:app_id/assets', 'list_assets', listAssetsHandler, { query: listAssetsQuery }),
  r('post', '/api/apps/:app_id/assets', 'upload_asset', uploadAssetHandler),
  r('post', '/api/assets/:asset_id/featured', 'set_asset_featured', setAssetFeaturedHandler, { body: setAssetFeaturedBody }),
  r('get', '/api/assets/:asset_id/file', 'asset_file', assetFileHandler),
];

export function webRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  // Signing in, accounts, teammates' invitations, agent consent (forms before a session carry the login CSRF token).
  router.get(session.LOGIN_PATH, session.showLogin);
  router.post(session.LOGIN_PATH, session.submitLogin);
  router.post('/dashboard/logout', session.logout);
  router.get('/dashboard/session', session.sessionInfo);
  router.get('/dashboard/signup', accounts.showSignup);
  router.post('/dashboard/signup', accounts.submitSignup);
  router.get('/dashboard/verify-email', accounts.verifyEmail);
  router.post('/dashboard/verify-email', accounts.resendVerification);
  router.get('/dashboard/password-reset', accounts.resetRequestForm);
  router.post('/dashboard/password-reset', accounts.requestReset);
  router.get('/dashboard/password-reset/:token', accounts.showReset);
  router.post('/dashboard/password-reset/:token', accounts.completeReset);
  router.get('/dashboard/invite/:token', team.showInvite);
  router.post('/dashboard/invite/:token', team.acceptInvite);
  router.get('/dashboard/oauth/:uid', consent.showInteraction);
  router.post('/dashboard/oauth/:uid', consent.answerInteraction);

  // Signed links for humans (an agent hands them out): the top-up first, then the others; the pages Stripe returns to.
  router.get('/dashboard/links/wallet-topup', topup.topupPage);
  router.post('/dashboard/links/wallet-topup', topup.startTopup);
  router.post('/dashboard/topups/:payment_id/confirm', topup.confirmTopup);
  router.get('/dashboard/topups/:payment_id', topup.topupStatusPage);
  router.get('/dashboard/auto-recharge-setups/:setup_id', setupStatusPage);
  router.get('/dashboard/links/:purpose', links.showLinkPage);
  router.post('/dashboard/links/:purpose', links.uploadCredential);

  // The signed-in pages (the navigation's order) and their page-only form posts.
  router.get('/dashboard', home);
  router.get('/dashboard/apps/:app_id', setupPage);
  router.get('/dashboard/apps/:app_id/events', validateQuery(events.eventsQuery), events.eventsPage);
  router.get('/dashboard/apps/:app_id/events/stream', events.sessionOnly, validateQuery(events.eventsQuery), events.eventStream);
  router.get('/dashboard/campaigns', campaigns.listPage);
  router.get('/dashboard/campaigns/:campaign_id', campaigns.detailPage);
  router.get('/dashboard/campaigns/:campaign_id/analytics', analyticsPage);
  router.get('/dashboard/creators', creatorsPage);
  router.get('/dashboard/bonus-awards', bonusAwardsPage);
  router.get('/dashboard/free-codes', freeCodesPage);
  router.get('/dashboard/assets', assetsPage);
  router.get('/dashboard/wallet', wallet.showWallet);
  router.post('/dashboard/wallet/topup', wallet.startTopup);
  router.post(AUTO_RECHARGE_PATH, wallet.changeAutoRecharge);
  router.get('/dashboard/wallet/payouts/preview', payouts.preview);
  router.post('/dashboard/wallet/payouts/run', payouts.run);
  router.get('/dashboard/wallet/payouts/:run_id', payouts.showRun);
  router.get('/dashboard/agents', agents.showAgents);
  router.post('/dashboard/agents/keys', agents.createKey);
  router.post('/dashboard/agents/keys/:id/revoke', agents.revokeKey);
  router.post('/dashboard/agents/grants/:id/revoke', agents.revokeGrant);
  router.get('/dashboard/team', team.showTeam);
  router.post('/dashboard/team/invite', team.inviteTeammate);

  // The public creator join page (its JSON endpoint is api/public's), and the pages' script files.
  router.get('/dashboard/join/:campaignId', showJoinPage);
  for (const file of STATIC_SCRIPTS) router.get(file, staticScript);

  // Dashboard REST.
  mountRest(router, [...DASHBOARD_ROUTES, ...CREATOR_ROUTES]);
  return router;
}
