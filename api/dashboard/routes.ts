// The web surface's table of contents: every page, form post and dashboard REST row served under the dashboard
// (verb, path, handler), mounted by api/app.ts as one router. Pages are preact components (api/view-kit/html.tsx); forms post
// without JavaScript; the few browser scripts are files of api/dashboard/browser/. Order matters for the signed links
// only: the top-up link's own pages and the asset-upload link's POST come before the generic signed-link rows.
//
// The REST rows (spec surface 4) take only a signed-in session (api/auth/surfaces.ts answers 401 to every other
// credential before routing), need the session's CSRF token on changes, run the agent API's handlers where one
// exists (so another organization's id is the same 404), take JSON or the pages' forms (form-reply.tsx) and audit
// each change with the user as actor (rest.ts). Money, agent keys and teammates are page forms, never REST rows.
import { Router } from '@koa/router';
import { createAppBody, createAppHandler, regeneratePurchaseKeyHandler, setupHandler } from './apps/app-handlers.js';
import { campaignTopAffiliatesHandler, campaignTopAffiliatesQuery, localizeFormBody } from './campaigns/campaign-handlers.js';
import { uploadCredentialHandler } from './apps/credential-upload.js';
import { CREDENTIAL_WORDS } from './apps/credential-form.js';
import { CAMPAIGN_WORDS } from './campaigns/campaign-fields.js';
import { assetFileHandler, uploadAssetHandler } from './assets/asset-upload.js';
import { blockFreeCodeBody, blockFreeCodeHandler } from './free-codes/free-code-block.js';
import { AGENT_ENDPOINTS } from '../agent/endpoints.js';
import { koaPath } from '../agent/routes.js';
import { showJoinPage } from '../public/join-page.js';
import type { AppContext, RequestState } from '../context.js';
import { validateQuery } from '../middleware/validate.js';
import * as accounts from './account/accounts.js';
import { uploadAssetsFromLink } from './assets/asset-link.js';
import * as agents from './agents/agents-page.js';
import { ASSET_WORDS, assetsPage } from './assets/assets-page.js';
import { setupStatusPage } from './wallet/auto-recharge-page.js';
import { bonusAwardsPage } from './campaigns/bonus-awards-page.js';
import { analyticsPage } from './campaigns/analytics-page.js';
import * as campaigns from './campaigns/campaigns-page.js';
import * as consent from './agents/consent.js';
import { creatorPage } from './creators/creator-page.js';
import { invitationsPage } from './creators/creator-tables.js';
import { DEV_MAILBOX_PATH, devMailbox } from './dev-mailbox.js';
import { creatorsPage } from './creators/creators-page.js';
import { inviteToPortal } from './creators/creator-portal-invite.js';
import { inviteForm, inviteOutcome } from './creators/invite-form.js';
import { eventsHistoryPage } from './apps/events-history.js';
import * as reviews from './reviews/reviews-page.js';
import { DANGERS } from './dangers.js';
import { textOf } from '../view-kit/ui.js';
import * as events from './apps/events-page.js';
import { FREE_CODE_WORDS, freeCodeChecks, freeCodesPage } from './free-codes/free-codes-page.js';
import { CREATE_APP_WORDS, createAppChecks, home } from './apps/home-page.js';
import * as links from './links/link-pages.js';
import { ledgerPage, payoutsPage } from './wallet/money-tables.js';
import { mountRest, r, type DashboardRoute } from './rest.js';
import * as session from './account/session.js';
import { LOGIN_PATH } from '../view-kit/sign-in-forms.js';
import { setupPage } from './apps/setup-page.js';
import { shownOncePage } from './shown-once.js';
import { STATIC_SCRIPTS, staticScript } from './static-assets.js';
import * as team from './account/team.js';
import { confirmVerifyEmail, showVerifyEmail, VERIFY_PATH } from './account/verify-email.js';
import * as topup from './wallet/topup-pages.js';
import { AUTO_RECHARGE_PATH } from './wallet/wallet-auto-recharge.js';
import * as wallet from './wallet/wallet-page.js';
import * as payouts from './wallet/wallet-payouts.js';
import * as payoutSettings from './wallet/wallet-payout-settings.js';

/**
 * A row of the agent API's table (api/agent/endpoints.ts, found by its tool) served to the dashboard too: the same
 * handler, body and query at `/api` + its path, so the two surfaces cannot drift; `action` names it in the audit
 * log (`dashboard.<action>`). The agent's scopes do not apply here: the session's user is checked by the handlers'
 * tenancy, as for the agent. Rows written with `r(...)` are the dashboard's own (money, secrets, files, pages' JSON).
 */
function shared(tool: string, action: string, more: Partial<DashboardRoute> = {}): DashboardRoute {
  const row = AGENT_ENDPOINTS.find((x) => x.tool === tool);
  if (!row) throw new Error(`No agent endpoint ${tool} to share with the dashboard`);
  return r(row.method, `/api${koaPath(row.path)}`, action, row.handler, {
    ...(row.body ? { body: row.body } : {}),
    ...(row.query ? { query: row.query } : {}),
    ...more,
  });
}

/** Apps, campaigns and their analytics. */
export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [
  shared('svc_list_apps', 'list_apps'),
  r('post', '/api/apps', 'create_app', createAppHandler, { body: createAppBody, words: CREATE_APP_WORDS, checks: createAppChecks }),
  shared('svc_get_app', 'get_app'),
  shared('svc_update_app', 'update_app'),
  r('get', '/api/apps/:app_id/setup', 'get_setup', setupHandler),
  shared('svc_integration_status', 'integration_status'),
  shared('svc_get_validation_status', 'validation_status'),
  shared('svc_recent_events', 'recent_events'),
  // The setup page's "Send a test purchase" (the agent's test-integration, same handler).
  shared('svc_test_integration', 'test_integration'),
  shared('svc_regenerate_webhook_secret', 'regenerate_webhook_secret', { confirm: () => DANGERS.webhookSecret }),
  // Dashboard only: the purchase API key and the raw credential are secrets agents never handle.
  r('post', '/api/apps/:app_id/regenerate-purchase-api-key', 'regenerate_purchase_api_key', regeneratePurchaseKeyHandler, {
    confirm: () => DANGERS.purchaseKey,
  }),
  r('post', '/api/apps/:app_id/credentials', 'upload_credential', uploadCredentialHandler, { words: CREDENTIAL_WORDS }),
  shared('svc_validate_store_credentials', 'validate_store_credentials'),
  shared('svc_activate_store_direct', 'activate_store_direct'),
  shared('svc_create_campaign', 'create_campaign', {
    words: CAMPAIGN_WORDS,
    done: (a) => ({ tone: 'ok', text: `Campaign "${textOf(a.name, '')}" created (${textOf(a.status, 'draft')}).` }),
  }),
  shared('svc_list_campaigns', 'list_campaigns'),
  shared('svc_get_campaign', 'get_campaign'),
  shared('svc_update_campaign', 'update_campaign'),
  shared('svc_set_campaign_status', 'set_campaign_status', {
    done: (a) => ({ tone: 'ok', text: `Campaign ${textOf(a.status, 'changed')}.` }),
  }),
  // Campaign and analytics pages (issue 17): HTML forms cannot PATCH, so the edit form posts to the same handler.
  shared('svc_update_campaign', 'update_campaign', {
    method: 'post',
    words: CAMPAIGN_WORDS,
    done: () => ({ tone: 'ok', text: 'Campaign saved.' }),
  }),
  shared('svc_localize_campaign', 'localize_campaign', {
    form: localizeFormBody,
    done: () => ({ tone: 'ok', text: 'Translation saved.' }),
  }),
  shared('svc_get_join_link', 'join_link'),
  shared('svc_get_campaign_funnel', 'campaign_funnel'),
  shared('svc_get_daily_performance', 'daily_performance'),
  r('get', '/api/campaigns/:campaign_id/top-affiliates', 'top_affiliates', campaignTopAffiliatesHandler, {
    query: campaignTopAffiliatesQuery,
  }),
  shared('svc_get_analytics_overview', 'analytics_overview'),
];

/** Creators and invitations, bonus awards, free-access codes and marketing assets (the pages' people and material). */
export const CREATOR_ROUTES: readonly DashboardRoute[] = [
  shared('svc_list_affiliates', 'list_affiliates'),
  shared('svc_invite_creator', 'invite_creator', { form: inviteForm, done: inviteOutcome }),
  shared('svc_list_invitations', 'list_invitations'),
  shared('svc_withdraw_invitation', 'withdraw_invitation', {
    confirm: () => DANGERS.withdrawInvitation,
    done: () => ({ tone: 'ok', text: 'Invitation withdrawn: its link no longer works.' }),
  }),
  shared('svc_list_bonus_awards', 'list_bonus_awards'),
  shared('svc_review_bonus_award', 'review_bonus_award', {
    confirm: (f) => (f.decision === 'void' ? DANGERS.voidAward : undefined),
    done: (a) => ({ tone: 'ok', text: `Bonus award ${textOf(a.status, 'reviewed')}.` }),
  }),
  shared('svc_list_offer_codes', 'list_offer_codes'),
  shared('svc_add_offer_code', 'add_offer_code', {
    done: (a) => ({ tone: 'ok', text: `Offer code ${textOf(a.value, '')} added.` }),
  }),
  shared('svc_retire_offer_code', 'retire_offer_code', {
    confirm: () => DANGERS.retireOfferCode,
    done: () => ({ tone: 'ok', text: 'Offer code retired: it attributes no new purchase; past ones stay.' }),
  }),
  shared('svc_list_free_codes', 'list_free_codes'),
  shared('svc_create_free_code', 'create_free_code', {
    words: FREE_CODE_WORDS,
    checks: freeCodeChecks,
    done: (a) => ({ tone: 'ok', text: `Free code ${textOf(a.code, '')} created.` }),
  }),
  r('post', '/api/apps/:app_id/free-codes/:free_code_id/block', 'block_free_code', blockFreeCodeHandler, {
    body: blockFreeCodeBody,
    confirm: (f) => (f.blocked === 'false' ? undefined : DANGERS.blockCode),
    done: (a) => ({
      tone: 'ok',
      text: a.blocked ? 'Code blocked: everyone who redeemed it loses access at their next check.' : 'Code unblocked.',
    }),
  }),
  shared('svc_list_assets', 'list_assets'),
  r('post', '/api/apps/:app_id/assets', 'upload_asset', uploadAssetHandler, { words: ASSET_WORDS }),
  shared('svc_set_asset_featured', 'set_asset_featured'),
  r('get', '/api/assets/:asset_id/file', 'asset_file', assetFileHandler),
];

/** `devMode`: only `svc dev` (api/context.ts ApiDeps.devMode) gets the dev mailbox page; elsewhere it does not exist. */
export function webRoutes(opts: { devMode?: boolean } = {}): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  if (opts.devMode) router.get(DEV_MAILBOX_PATH, devMailbox);
  // Signing in, accounts, teammates' invitations, agent consent (forms before a session carry the login CSRF token).
  router.get(LOGIN_PATH, session.showLogin);
  router.post(LOGIN_PATH, session.submitLogin);
  router.post('/dashboard/logout', session.logout);
  router.get('/dashboard/session', session.sessionInfo);
  router.get('/dashboard/signup', accounts.showSignup);
  router.post('/dashboard/signup', accounts.submitSignup);
  router.get(VERIFY_PATH, showVerifyEmail);
  router.post(VERIFY_PATH, accounts.resendVerification);
  router.post(`${VERIFY_PATH}/:token`, confirmVerifyEmail);
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
  router.get('/dashboard/links/:purpose', links.showLinkPage); // credential-upload and asset-upload: their forms
  router.post('/dashboard/links/asset-upload', uploadAssetsFromLink); // the files, from the form or a script
  router.post('/dashboard/links/:purpose', links.uploadCredential);

  // The signed-in pages (the navigation's order) and their page-only form posts.
  router.get('/dashboard', home);
  router.get('/dashboard/shown-once', shownOncePage);
  router.get('/dashboard/apps/:app_id', setupPage);
  router.get('/dashboard/apps/:app_id/events', validateQuery(events.eventsQuery), events.eventsPage);
  router.get('/dashboard/apps/:app_id/events/history', eventsHistoryPage);
  router.get('/dashboard/apps/:app_id/events/stream', events.sessionOnly, validateQuery(events.eventsQuery), events.eventStream);
  router.get('/dashboard/campaigns', campaigns.listPage);
  router.get('/dashboard/campaigns/:campaign_id', campaigns.detailPage);
  router.post('/dashboard/campaigns/:campaign_id/bonus-rules', campaigns.saveBonusRules);
  router.post('/dashboard/campaigns/:campaign_id/fraud-signals', campaigns.saveSignalActions);
  router.get('/dashboard/campaigns/:campaign_id/analytics', analyticsPage);
  router.get('/dashboard/creators', creatorsPage);
  router.get('/dashboard/creators/:creator_id', creatorPage);
  router.get('/dashboard/invitations', invitationsPage);
  router.post('/dashboard/creators/:creator_id/portal-invite', inviteToPortal);
  router.get('/dashboard/bonus-awards', bonusAwardsPage);
  router.get(reviews.REVIEWS_PATH, reviews.reviewsPage);
  router.post('/dashboard/reviews/decide', reviews.decideReviews);
  router.get('/dashboard/free-codes', freeCodesPage);
  router.get('/dashboard/assets', assetsPage);
  router.get('/dashboard/wallet', wallet.showWallet);
  router.post('/dashboard/wallet/topup', wallet.startTopup);
  router.post(AUTO_RECHARGE_PATH, wallet.changeAutoRecharge);
  router.get('/dashboard/wallet/ledger', ledgerPage);
  router.get('/dashboard/wallet/payouts', payoutsPage);
  router.get('/dashboard/wallet/payouts/preview', payouts.preview);
  router.post('/dashboard/wallet/payouts/run', payouts.run);
  router.post('/dashboard/wallet/payouts/settings', payoutSettings.saveSettings);
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
