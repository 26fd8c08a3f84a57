// Every endpoint of the agent REST API (spec "Agent REST API") with the scope it needs: the one table the router,
// the OpenAPI document and the tool server read. The spec does not say which scope each endpoint needs; the obvious
// one per resource is chosen (integration checks need `integration:verify`, the wallet `billing:read`, creators and
// invitations `creators:*`, free codes `campaigns:*`). Every row has its handler.
import type { Scope } from '../../lib/scopes.js';
import type { Deprecation } from './deprecation.js';
import type { AppContext } from '../context.js';
import {
  analyticsOverviewHandler,
  campaignFunnelHandler,
  dailyPerformanceHandler,
  periodQuery,
  topAffiliatesHandler,
  topAffiliatesQuery,
} from './analytics.js';
import { localizeAppBody, localizeAppHandler, localizeCampaignBody, localizeCampaignHandler } from './localize.js';
import { storeScrapeHandler, storeScrapeQuery, storeSearchHandler, storeSearchQuery } from './store.js';
import { validationStatusHandler } from './validation-status.js';
import { regenerateWebhookSecretHandler, updateAppBody, updateAppHandler } from './app-writes.js';
import { getAppHandler, listAppsHandler } from './apps.js';
import {
  campaignStatusBody,
  createCampaignBody,
  createCampaignHandler,
  setCampaignStatusHandler,
  updateCampaignBody,
  updateCampaignHandler,
} from './campaign-writes.js';
import { getCampaignHandler, listCampaignsHandler, listCampaignsQuery } from './campaigns.js';
import { listCommissionsHandler, listCommissionsQuery } from './commissions.js';
import { checkSlugHandler } from './check-slug.js';
import { integrationStatusHandler } from './integration-status.js';
import {
  inviteBody,
  inviteHandler,
  joinLinkHandler,
  joinLinkQuery,
  listAffiliatesHandler,
  listInvitationsHandler,
  listInvitationsQuery,
  withdrawInvitationHandler,
} from './invitations.js';
import { createOrganizationBody, createOrganizationHandler } from './organizations.js';
import { provisionBody, provisionHandler } from './provision.js';
import { getWalletHandler, walletQuery } from './wallet.js';
import { recentEventsHandler, recentEventsQuery } from './recent-events.js';
import { testIntegrationHandler } from './test-integration.js';
import { verifyUserConversionsHandler, verifyUserQuery } from './verify-user.js';
import { doctor, whoami } from './whoami.js';
import { assetLinkHandler, credentialLinkBody, credentialLinkHandler, topupLinkBody, topupLinkHandler } from './signed-links.js';
import { appleMetaBody, setAppleMeta } from './apple-meta.js';
import { listAssetsHandler, listAssetsQuery, setAssetFeaturedBody, setAssetFeaturedHandler } from './assets.js';
import { listBonusAwardsHandler, listBonusAwardsQuery, reviewBonusAwardBody, reviewBonusAwardHandler } from './bonus-awards.js';
import { listReviewsHandler, listReviewsQuery, reviewCommissionBody, reviewCommissionHandler } from './commission-reviews.js';
import { activateStoreDirectHandler, storePlatformBody, validateStoreCredentialsHandler } from './store-direct.js';
import { createFreeCodeBody, createFreeCodeHandler, listFreeCodesHandler, listFreeCodesQuery } from './free-codes.js';
import { setupSubproviderBody, setupSubproviderHandler } from './setup-subprovider.js';
import { addOfferCodeBody, addOfferCodeHandler, listOfferCodesHandler, retireOfferCodeHandler } from './offer-codes.js';
import { registerEndpointRoutes } from './next-action.js';

export type AgentHandler = (ctx: AppContext) => Promise<void>;

/** One MCP tool served by a row (api/mcp); most rows serve one, named by `tool`. */
export interface EndpointTool {
  name: string;
  /** The body properties this tool takes when the row's body has several forms (a `oneOf`); default: all of them. */
  bodyFields?: readonly string[];
}

export interface AgentEndpoint {
  method: 'get' | 'post' | 'patch';
  /** OpenAPI form: `/apps/{app_id}`. */
  path: string;
  tool: string;
  /** The MCP tools of this row when it serves more than `tool` alone (same handler, same guard). */
  tools?: readonly EndpointTool[];
  /** Every scope the call needs; empty for whoami and doctor. */
  scopes: readonly Scope[];
  summary: string;
  body?: object;
  query?: object;
  handler: AgentHandler;
  /** Set once the endpoint is deprecated (docs/compatibility.md): its answers, operation and tool say so. */
  deprecated?: Deprecation;
}

const e = (
  method: AgentEndpoint['method'],
  path: string,
  tool: string,
  scopes: Scope[],
  summary: string,
  more: Partial<AgentEndpoint> & Pick<AgentEndpoint, 'handler'>,
): AgentEndpoint => ({ method, path, tool, scopes, summary, ...more });

export const AGENT_ENDPOINTS: readonly AgentEndpoint[] = [
  e('get', '/whoami', 'svc_whoami', [], 'Who this credential is: auth mode, principal, scopes, organizations', { handler: whoami }),
  e('get', '/doctor', 'svc_doctor', [], "Diagnose the credential and every app's SDK-init freshness", { handler: doctor }),
  e('post', '/organizations', 'svc_create_org', ['apps:write'], 'Create an organization', {
    handler: createOrganizationHandler,
    body: createOrganizationBody,
  }),
  e('get', '/store/search', 'svc_search_store', ['apps:read'], 'Search the public app stores', {
    handler: storeSearchHandler,
    query: storeSearchQuery,
  }),
  e('get', '/store/scrape', 'svc_scrape_store', ['apps:read'], 'Read one store listing', {
    handler: storeScrapeHandler,
    query: storeScrapeQuery,
  }),
  e('get', '/apps/check-slug/{slug}', 'svc_check_slug', ['apps:read'], 'Whether a slug is free for referral links', {
    handler: checkSlugHandler,
  }),
  e(
    'post',
    '/provision',
    'svc_provision',
    ['apps:write', 'campaigns:write'],
    'Idempotent: organization, app with keys and webhook secret, campaign, activation',
    { handler: provisionHandler, body: provisionBody },
  ),
  e(
    'post',
    '/apps/{app_id}/regenerate-webhook-secret',
    'svc_regenerate_webhook_secret',
    ['apps:write'],
    'New webhook secret, returned once; the old one dies',
    { handler: regenerateWebhookSecretHandler },
  ),
  e(
    'post',
    '/apps/{app_id}/setup-subprovider',
    'svc_setup_subprovider',
    ['apps:write'],
    'Wire the subscription-provider webhook (autowire with the stored ' +
      'provider key, else dashboard steps); webhook URL and subscriber attributes',
    { handler: setupSubproviderHandler, body: setupSubproviderBody },
  ),
  e('get', '/apps/{app_id}/validation-status', 'svc_get_validation_status', ['apps:read'], 'Purchase-validation path per platform', {
    handler: validationStatusHandler,
  }),
  e(
    'post',
    '/apps/{app_id}/credential-setup-link',
    'svc_get_credential_upload_link',
    ['apps:write'],
    'Signed link for a human to upload store credentials',
    { handler: credentialLinkHandler, body: credentialLinkBody },
  ),
  e('patch', '/apps/{app_id}/apple-meta', 'svc_set_apple_meta', ['apps:write'], 'Non-secret Apple settings', {
    handler: setAppleMeta,
    body: appleMetaBody,
  }),
  e(
    'post',
    '/apps/{app_id}/validate-store-credentials',
    'svc_validate_store_credentials',
    ['integration:verify'],
    'Live green-check of the stored store credentials',
    { handler: validateStoreCredentialsHandler, body: storePlatformBody },
  ),
  e(
    'post',
    '/apps/{app_id}/activate-store-direct',
    'svc_activate_store_direct',
    ['apps:write'],
    'Switch a platform to store-direct (after the green-check)',
    { handler: activateStoreDirectHandler, body: storePlatformBody },
  ),
  e(
    'get',
    '/apps/{app_id}/integration-status',
    'svc_integration_status',
    ['integration:verify'],
    'The 8-step integration checklist and whether it is live',
    { handler: integrationStatusHandler },
  ),
  e('get', '/apps/{app_id}/events/recent', 'svc_recent_events', ['integration:verify'], 'Recent SDK events and purchase webhooks', {
    handler: recentEventsHandler,
    query: recentEventsQuery,
  }),
  e(
    'post',
    '/apps/{app_id}/test-integration',
    'svc_test_integration',
    ['integration:verify'],
    'Push a sandbox purchase through the real pipeline',
    { handler: testIntegrationHandler },
  ),
  e(
    'get',
    '/apps/{app_id}/verify-user-conversions',
    'svc_verify_user_conversions',
    ['integration:verify'],
    "A user's conversions and attribution",
    { handler: verifyUserConversionsHandler, query: verifyUserQuery },
  ),
  e('get', '/apps', 'svc_list_apps', ['apps:read'], 'Apps of the granted organizations', { handler: listAppsHandler }),
  e('get', '/apps/{app_id}', 'svc_get_app', ['apps:read'], 'One app', { handler: getAppHandler }),
  e('patch', '/apps/{app_id}', 'svc_update_app', ['apps:write'], 'Update an app', { handler: updateAppHandler, body: updateAppBody }),
  e('get', '/campaigns', 'svc_list_campaigns', ['campaigns:read'], 'Campaigns of the granted organizations', {
    handler: listCampaignsHandler,
    query: listCampaignsQuery,
  }),
  e('get', '/campaigns/{campaign_id}', 'svc_get_campaign', ['campaigns:read'], 'One campaign', { handler: getCampaignHandler }),
  e('patch', '/campaigns/{campaign_id}', 'svc_update_campaign', ['campaigns:write'], 'Update a campaign', {
    handler: updateCampaignHandler,
    body: updateCampaignBody,
  }),
  e('post', '/apps/{app_id}/campaigns', 'svc_create_campaign', ['campaigns:write'], 'Create a campaign (as DRAFT)', {
    handler: createCampaignHandler,
    body: createCampaignBody,
  }),
  e(
    'post',
    '/campaigns/{campaign_id}/status',
    'svc_set_campaign_status',
    ['campaigns:write'],
    'Activate or pause (activation needs the minimum escrow)',
    { handler: setCampaignStatusHandler, body: campaignStatusBody },
  ),
  e('get', '/bonus-awards', 'svc_list_bonus_awards', ['creators:read'], 'Milestone bonus awards', {
    handler: listBonusAwardsHandler,
    query: listBonusAwardsQuery,
  }),
  e('post', '/bonus-awards/{award_id}/review', 'svc_review_bonus_award', ['creators:write'], 'Approve or void an award before payout', {
    handler: reviewBonusAwardHandler,
    body: reviewBonusAwardBody,
  }),
  e('get', '/reviews', 'svc_list_reviews', ['creators:read'], 'Suspicious commissions under review, with their signals in words', {
    handler: listReviewsHandler,
    query: listReviewsQuery,
  }),
  e('post', '/reviews/{review_id}/review', 'svc_review_commission', ['creators:write'], 'Approve or void a commission under review', {
    handler: reviewCommissionHandler,
    body: reviewCommissionBody,
  }),
  e('get', '/apps/{app_id}/analytics/overview', 'svc_get_analytics_overview', ['analytics:read'], 'App overview (production only)', {
    handler: analyticsOverviewHandler,
    query: periodQuery,
  }),
  e(
    'get',
    '/campaigns/{campaign_id}/funnel',
    'svc_get_campaign_funnel',
    ['analytics:read'],
    'Clicks, installs, trials, conversions, revenue, commission',
    { handler: campaignFunnelHandler, query: periodQuery },
  ),
  e('get', '/analytics/top-affiliates', 'svc_list_top_affiliates', ['analytics:read'], 'Top creators', {
    handler: topAffiliatesHandler,
    query: topAffiliatesQuery,
  }),
  e('get', '/campaigns/{campaign_id}/daily-performance', 'svc_get_daily_performance', ['analytics:read'], 'Per-day performance', {
    handler: dailyPerformanceHandler,
    query: periodQuery,
  }),
  e(
    'get',
    '/campaigns/{campaign_id}/commissions',
    'svc_list_commissions',
    ['creators:read'],
    'Commissions with their basis and the amounts behind it',
    { handler: listCommissionsHandler, query: listCommissionsQuery },
  ),
  e('get', '/campaigns/{campaign_id}/affiliates', 'svc_list_affiliates', ['creators:read'], 'Creators in a campaign', {
    handler: listAffiliatesHandler,
  }),
  e(
    'post',
    '/campaigns/{campaign_id}/invite',
    'svc_invite_creator',
    ['creators:write'],
    'Invite a creator (or several: batch, per-item results)',
    {
      handler: inviteHandler,
      body: inviteBody,
      tools: [
        { name: 'svc_invite_creator', bodyFields: ['email', 'name', 'message', 'lang'] },
        { name: 'svc_invite_creators_batch', bodyFields: ['creators'] },
      ],
    },
  ),
  e(
    'post',
    '/campaigns/{campaign_id}/affiliates/{creator_id}/offer-codes',
    'svc_add_offer_code',
    ['creators:write'],
    'Give a creator a store offer code (App Store reference name, Play offer id or tag)',
    { handler: addOfferCodeHandler, body: addOfferCodeBody },
  ),
  e(
    'get',
    '/campaigns/{campaign_id}/affiliates/{creator_id}/offer-codes',
    'svc_list_offer_codes',
    ['creators:read'],
    "A creator's offer codes in a campaign",
    { handler: listOfferCodesHandler },
  ),
  e(
    'post',
    '/offer-codes/{offer_code_id}/retire',
    'svc_retire_offer_code',
    ['creators:write'],
    'Retire an offer code (keeps past attributions)',
    {
      handler: retireOfferCodeHandler,
    },
  ),
  e('get', '/campaigns/{campaign_id}/join-link', 'svc_get_join_link', ['creators:read'], 'Public join page URL and readiness warnings', {
    handler: joinLinkHandler,
    query: joinLinkQuery,
  }),
  e('get', '/invitations', 'svc_list_invitations', ['creators:read'], 'Invitations (default: pending)', {
    handler: listInvitationsHandler,
    query: listInvitationsQuery,
  }),
  e(
    'post',
    '/invitations/{invitation_id}/withdraw',
    'svc_withdraw_invitation',
    ['creators:write'],
    'Withdraw a pending invitation (frees its slot)',
    { handler: withdrawInvitationHandler },
  ),
  e(
    'get',
    '/apps/{app_id}/free-codes',
    'svc_list_free_codes',
    ['campaigns:read'],
    'Free-access codes; with ?code= that code and the users it granted access to',
    { handler: listFreeCodesHandler, query: listFreeCodesQuery },
  ),
  e('post', '/apps/{app_id}/free-codes', 'svc_create_free_code', ['campaigns:write'], 'Create a free-access code', {
    handler: createFreeCodeHandler,
    body: createFreeCodeBody,
  }),
  e('get', '/apps/{app_id}/assets', 'svc_list_assets', ['assets:read'], 'Marketing assets', {
    handler: listAssetsHandler,
    query: listAssetsQuery,
  }),
  e('post', '/assets/{asset_id}/featured', 'svc_set_asset_featured', ['assets:write'], 'Feature an asset', {
    handler: setAssetFeaturedHandler,
    body: setAssetFeaturedBody,
  }),
  e('post', '/apps/{app_id}/asset-upload-link', 'svc_get_asset_upload_link', ['assets:write'], 'Signed link for a human to upload assets', {
    handler: assetLinkHandler,
  }),
  e('get', '/wallet', 'svc_get_wallet', ['billing:read'], 'Balance, reserved, safe available, invite capacity (read-only)', {
    handler: getWalletHandler,
    query: walletQuery,
  }),
  e(
    'post',
    '/wallet/topup-link',
    'svc_get_wallet_topup_link',
    ['billing:read'],
    'Signed link for a human to top up (no money moves here)',
    { handler: topupLinkHandler, body: topupLinkBody },
  ),
  e('post', '/campaigns/{campaign_id}/localize', 'svc_localize_campaign', ['campaigns:write'], 'Store per-locale campaign copy', {
    handler: localizeCampaignHandler,
    body: localizeCampaignBody,
  }),
  e('post', '/apps/{app_id}/localize', 'svc_localize_app', ['apps:write'], 'Store per-locale app copy', {
    handler: localizeAppHandler,
    body: localizeAppBody,
  }),
];
registerEndpointRoutes(AGENT_ENDPOINTS);

/** The MCP tools a row serves (api/mcp derives one tool from each). */
export const endpointTools = (endpoint: AgentEndpoint): readonly EndpointTool[] => endpoint.tools ?? [{ name: endpoint.tool }];
