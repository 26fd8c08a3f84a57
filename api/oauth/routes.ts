// The authorization server's HTTP surface (docs/oauth.md): oidc-provider mounted under /oauth, the discovery
// documents at the well-known URLs clients try (RFC 8414 for the issuer `BASE_URL/oauth`, its root alias, OpenID
// discovery), the protected resource metadata of the agent surfaces (RFC 9728: root and path-suffixed for /mcp and
// /api/agent), and the session-only grant endpoints (list, revoke). Importing this module registers the OAuth
// access-token resolver with the authenticate middleware.
import { revokeOauthAccess } from '../../actions/oauth-grants.js';
import { Router } from '@koa/router';
import type { IncomingMessage } from 'node:http';
import { listOauthGrants } from '../../db/oauth-grants.js';
import { NotFoundError, RateLimitedError } from '../../errors/http-errors.js';
import { SCOPES } from '../../lib/scopes.js';
import { registerTokenResolver } from '../auth/authenticate.js';
import { guard, principalOf } from '../auth/guard.js';
import type { AppContext, Middleware, RequestState } from '../context.js';
import { agentAudience, issuerOf, OAUTH_PREFIX, providerOf } from './provider.js';
import { resolveOauthToken } from './token-resolver.js';

registerTokenResolver(resolveOauthToken);

/** Dynamic client registrations admitted per client IP and hour. */
const REGISTRATIONS_PER_HOUR = 30;

/** Hands the request to oidc-provider with the path below its mount point (it builds its URLs from originalUrl). */
async function delegate(ctx: AppContext, innerPath: string): Promise<void> {
  const provider = providerOf(ctx.deps);
  const req = ctx.req as IncomingMessage & { originalUrl?: string };
  req.originalUrl = `${OAUTH_PREFIX}${innerPath}`;
  req.url = innerPath;
  ctx.respond = false;
  await provider.callback()(req, ctx.res);
}

/** Everything under /oauth/ belongs to the authorization server (the JSON body reader leaves it alone). */
export const oauthServer: Middleware = async (ctx, next) => {
  if (!ctx.path.startsWith(`${OAUTH_PREFIX}/`)) return next();
  // Registration is open (RFC 7591 without an initial access token), so it is rate limited per client IP.
  if (
    ctx.method === 'POST' &&
    ctx.path === `${OAUTH_PREFIX}/reg` &&
    !(await ctx.rateCounter.tryHit(`oauth-reg:${ctx.state.clientIp}`, REGISTRATIONS_PER_HOUR, 3600_000))
  ) {
    throw new RateLimitedError(3600);
  }
  await delegate(ctx, ctx.url.slice(OAUTH_PREFIX.length));
};

function protectedResource(ctx: AppContext, resource: string, name: string): void {
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.body = {
    resource,
    authorization_servers: [issuerOf(ctx.deps.config)],
    scopes_supported: SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: name,
    resource_documentation: `${ctx.deps.config.BASE_URL}/api/agent/openapi.json`,
  };
}

async function listGrants(ctx: AppContext): Promise<void> {
  const principal = principalOf(ctx);
  if (principal.kind !== 'user') throw new NotFoundError();
  const grants = await listOauthGrants(ctx.deps.db, principal.userId);
  ctx.body = {
    grants: grants.map((g) => ({
      id: g.id,
      client_id: g.client_id,
      org_ids: g.org_ids,
      scopes: g.scopes,
      created_at: g.created_at,
      last_used_at: g.last_used_at,
      revoked_at: g.revoked_at,
    })),
  };
}

/** Stops refresh at once and kills the grant's access tokens (they are looked up on every call). */
async function revokeGrant(ctx: AppContext): Promise<void> {
  const principal = principalOf(ctx);
  const id = ctx.params.id as string;
  if (principal.kind !== 'user' || !(await revokeOauthAccess(ctx.deps, { grantId: id, userId: principal.userId })))
    throw new NotFoundError('No such live grant of yours.');
  ctx.body = { id, revoked: true };
}

export function oauthRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  const discovery = (ctx: AppContext) => delegate(ctx, '/.well-known/openid-configuration');
  router.get('/.well-known/oauth-authorization-server', discovery);
  router.get(`/.well-known/oauth-authorization-server${OAUTH_PREFIX}`, discovery);
  router.get(`/.well-known/openid-configuration${OAUTH_PREFIX}`, discovery);
  router.get('/.well-known/oauth-protected-resource', (ctx) =>
    protectedResource(ctx, agentAudience(ctx.deps.config), 'svc agent API and tool server'),
  );
  router.get('/.well-known/oauth-protected-resource/mcp', (ctx) =>
    protectedResource(ctx, `${ctx.deps.config.BASE_URL}/mcp`, 'svc tool server (MCP)'),
  );
  router.get('/.well-known/oauth-protected-resource/api/agent', (ctx) =>
    protectedResource(ctx, `${ctx.deps.config.BASE_URL}/api/agent`, 'svc agent API'),
  );
  router.get('/api/grants', guard({ allow: ['user'] }), listGrants);
  router.post('/api/grants/:id/revoke', guard({ allow: ['user'] }), revokeGrant);
  return router;
}
