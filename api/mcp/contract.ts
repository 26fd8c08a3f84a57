// The wire contract as the resource `svc://contract`: its version, the client API and webhook paths, the agent REST
// spec link, the records the agent API answers (api/agent/record-schemas.ts, as in the OpenAPI document) and the
// scopes. Paths are read from the routers that serve them and scopes from lib/scopes.ts, so the
// document lists what this build serves, never a hand-kept copy (an endpoint of the spec not served yet is absent).
import type { Router } from '@koa/router';
import { HARD_DENIED, SCOPES } from '../../lib/scopes.js';
import { APP_RECORD, CAMPAIGN_RECORD, FREE_CODE_WITH_REDEMPTIONS, PURCHASE_EVENT } from '../agent/record-schemas.js';
import type { AppContext, RequestState } from '../context.js';
import { sdkRoutes } from '../sdk/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';

/** Spec "Versioning": the current wire contract version (the agent OpenAPI document carries the same; tested). */
const WIRE_CONTRACT_VERSION = '1.6.0';

interface RouteLine {
  method: string;
  path: string;
}

/** The campaign field `bonus_rules` (CONTRACT.md "Milestone bonus rules") and how its awards end. */
const MILESTONE_BONUSES = {
  campaign_field:
    'bonus_rules: [{id (read only), threshold_conversions: int >= 1, bonus_usd: > 0, 2 decimals, <= 100000, name?: default ' +
    '"{N} conversions bonus"}], at most 10, distinct thresholds; set by svc_create_campaign / svc_update_campaign (PATCH ' +
    'replaces the list by threshold: same threshold updated, missing deactivated, new inserted); 422 naming bonus_rules otherwise',
  earning:
    'once per rule and creator, when unreversed production paid conversions in the ' +
    'campaign reach the threshold, or when a rule is saved that the creator already passed',
  award_states:
    'earned -> approved (reserves the amount; no platform fee) | voided; approved -> voided (releases the ' +
    'reservation) until paid; approved -> paid by the operator payout run; voided and paid are final (review: 409 naming the state)',
  refunds:
    'a refund below the threshold voids an earned award, or flags an approved one ' +
    '(needs_review: approve keeps it, void releases it; a payout waits for the decision)',
} as const;

/** Served routes of a router, in OpenAPI path form (`/api/webhooks/subprovider/{appId}`). */
function routesOf(router: Router<RequestState, AppContext>): RouteLine[] {
  return router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path).replace(/:(\w+)/g, '{$1}') })),
  );
}

let served: { client: RouteLine[]; webhooks: RouteLine[] } | undefined;

export function contractDocument(baseUrl: string): Record<string, unknown> {
  served ??= { client: routesOf(sdkRoutes()), webhooks: routesOf(webhookRoutes()) };
  return {
    version: WIRE_CONTRACT_VERSION,
    base_url: baseUrl,
    client_api: {
      base_url: `${baseUrl}/api`,
      auth: 'Authorization: Bearer <SDK key, it_...>: one per app, public, only /api/sdk/* of its own app',
      endpoints: served.client,
      purchase_event: PURCHASE_EVENT,
    },
    webhooks: {
      auth: 'subscription provider: Authorization: Bearer <webhook secret, rc_webhook_...>; direct purchase: Bearer <app server API key>',
      endpoints: served.webhooks,
    },
    agent_api: {
      base_url: `${baseUrl}/api/agent`,
      openapi: `${baseUrl}/api/agent/openapi.json`,
      auth: 'Authorization: Bearer <agent key it_mcp_... or OAuth access token>',
      resource_index: `${baseUrl}/api/agent`,
      records: { app: APP_RECORD, campaign: CAMPAIGN_RECORD, free_code_with_redemptions: FREE_CODE_WITH_REDEMPTIONS },
      errors: '{"detail": ...}; 422 lists fields; a method a path does not serve is 405 with an Allow header',
    },
    tool_server: { url: `${baseUrl}/mcp`, transport: 'streamable-http, stateless', tools: 'svc://tools' },
    milestone_bonuses: MILESTONE_BONUSES,
    scopes: [...SCOPES],
    hard_denied: [...HARD_DENIED],
  };
}
