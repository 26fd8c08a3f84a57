// The actions no agent may take whatever its scopes (spec "Authentication" 5): money writes, payouts, raw
// credentials, deletes, admin. None of them is an endpoint of the agent table, so without this they answered 404 or
// 405 (a wrong method); an agent asking for one now gets 403 naming the denied action and where a human does it,
// from the guard's `deny` rule (api/auth/guard.ts). Nothing here is in the OpenAPI document or the tool list.
import type { HardDeniedAction } from '../../lib/scopes.js';
import { checkRule } from '../auth/guard.js';
import type { Middleware } from '../context.js';

const PREFIX = '/api/agent';
/** Writes other than DELETE: every DELETE is the `delete` action (the first row). */
const WRITES = ['POST', 'PUT', 'PATCH'] as const;

export interface HardDeniedRoute {
  /** The methods denied on the path (a read of the same path keeps its own answer). */
  methods: readonly string[];
  /** The path after /api/agent. */
  path: RegExp;
  deny: HardDeniedAction;
  /** Examples for the docs and the test (OpenAPI form). */
  examples: readonly string[];
}

/**
 * In order, first match wins. The wallet is read-only to agents but for minting the human's top-up link; payouts,
 * raw store credentials and administration have no agent endpoint at all.
 */
export const HARD_DENIED_ROUTES: readonly HardDeniedRoute[] = [
  { methods: ['DELETE'], path: /^\/.*$/, deny: 'delete', examples: ['/apps/{app_id}', '/campaigns/{campaign_id}', '/wallet'] },
  {
    methods: WRITES,
    path: /^\/wallet(?:\/(?!topup-link$)[^/]+)*\/?$/,
    deny: 'money:write',
    examples: ['/wallet', '/wallet/topup', '/wallet/transfer', '/wallet/withdraw', '/wallet/auto-recharge'],
  },
  {
    methods: WRITES,
    path: /^\/(?:payouts|payout-runs)(?:\/.*)?$/,
    deny: 'payouts',
    examples: ['/payouts', '/payouts/{payout_id}/approve', '/payout-runs'],
  },
  {
    methods: ['GET', ...WRITES],
    path: /^\/apps\/[^/]+\/(?:credentials|store-credentials)(?:\/.*)?$/,
    deny: 'credentials:raw',
    examples: ['/apps/{app_id}/credentials', '/apps/{app_id}/store-credentials/ios'],
  },
  {
    methods: ['GET', ...WRITES],
    path: /^\/(?:admin|agent-keys|organizations\/[^/]+\/members)(?:\/.*)?$/,
    deny: 'admin',
    examples: ['/admin/users', '/agent-keys', '/organizations/{org_id}/members'],
  },
];

/** The denied action of a request to the agent API, or undefined when it is not one. */
export function deniedAction(method: string, path: string): HardDeniedAction | undefined {
  if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return undefined;
  const rest = path.slice(PREFIX.length) || '/';
  return HARD_DENIED_ROUTES.find((r) => r.methods.includes(method) && r.path.test(rest))?.deny;
}

/**
 * Before the routers, after authentication: an agent principal asking for a denied action gets the guard's 403
 * (`'<action>' is denied to every agent; a human must do this in the dashboard.`). Anyone else passes to the routes,
 * which answer as before (401 without an agent credential, 404 or 405).
 */
export const hardDenyAgents: Middleware = async (ctx, next) => {
  const deny = ctx.state.principal?.kind === 'agent' ? deniedAction(ctx.method, ctx.path) : undefined;
  if (deny) {
    const error = checkRule(ctx.state.principal, { allow: ['agent'], deny });
    if (error) throw error;
  }
  return next();
};
