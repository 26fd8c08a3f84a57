// Composes the Koa application: cross-cutting middleware first (request context, errors, metrics, body,
// authentication), then one router per surface. Each surface's routes file reads as its table of contents.
import Koa from 'koa';
import type { Server } from 'node:http';
import { agentRoutes } from './agent/routes.js';
import { authenticate } from './auth/authenticate.js';
import { dashboardLinkRoutes } from './dashboard/routes.js';
import { surfaceGuard } from './auth/surfaces.js';
import { csrfGuard } from './auth/csrf.js';
import { sessionRoutes } from './dashboard/session.js';
import { consentRoutes } from './dashboard/consent.js';
import { accountRoutes } from './dashboard/accounts.js';
import { agentsRoutes } from './dashboard/agents-page.js';
import { homeRoutes } from './dashboard/home-page.js';
import { dashboardRestRoutes } from './dashboard/rest.js';
import { creatorRestRoutes } from './dashboard/creators-rest.js';
import { creatorsRoutes } from './dashboard/creators-page.js';
import { bonusAwardsRoutes } from './dashboard/bonus-awards-page.js';
import { freeCodesRoutes } from './dashboard/free-codes-page.js';
import { assetsRoutes } from './dashboard/assets-page.js';
import { teamRoutes } from './dashboard/team.js';
import { walletRoutes } from './dashboard/wallet-page.js';
import { campaignsRoutes } from './dashboard/campaigns-page.js';
import { staticAssetRoutes } from './dashboard/static-assets.js';
import { eventsRoutes } from './dashboard/events-page.js';
import { agentChallenge } from './oauth/challenge.js';
import { oauthRoutes, oauthServer } from './oauth/routes.js';
import type { ApiDeps, AppContext, RequestState } from './context.js';
import { healthRoutes } from './health/routes.js';
import { linkRoutes } from './links/routes.js';
import { mcpRoutes } from './mcp/koa-mount.js';
import { readSdkResource, registryTools } from './mcp/registry.js';
import { paymentRoutes } from './payments/routes.js';
import { publicRoutes } from './public/routes.js';
import { SecretBox } from '../lib/secret-box.js';
import { createApiCaches } from './sdk-caches.js';
import { sdkRoutes } from './sdk/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { jsonBody } from './middleware/json-body.js';
import { allowedMethodsAsErrors } from './middleware/errors.js';
import { createMetrics } from './middleware/metrics.js';
import { RedisSlidingWindowCounter, SlidingWindowCounter } from '../runtime/rate-counter.js';
import { edge } from './middleware/request-context.js';

export type SvcApp = Koa<RequestState, AppContext>;

export function createApp(deps: ApiDeps): SvcApp {
  // Each proxy appends the address it received from, so only the last TRUST_PROXY_HOPS entries are ours to trust.
  const app = new Koa<RequestState, AppContext>({ proxy: deps.config.TRUST_PROXY, proxyIpHeader: 'X-Forwarded-For', maxIpsCount: deps.config.TRUST_PROXY_HOPS });
  app.context.deps = deps;
  app.context.caches = createApiCaches(deps.appChanges);
  app.context.secretBox = deps.config.SVC_MASTER_KEY ? new SecretBox(deps.config.SVC_MASTER_KEY) : undefined;
  app.context.rateCounter = deps.redis ? new RedisSlidingWindowCounter(deps.redis, deps.logger) : new SlidingWindowCounter();
  const metrics = createMetrics();
  const health = healthRoutes(metrics.registry);

  app.use(edge(metrics));
  app.use(jsonBody);
  app.use(oauthServer);
  app.use(agentChallenge);
  app.use(authenticate);
  app.use(surfaceGuard);
  app.use(csrfGuard);
  // Referral links (`/{slug}/{code}`) match any two segments, so they go last.
  for (const router of [health, sdkRoutes(), webhookRoutes(), agentRoutes(), mcpRoutes({ extraTools: registryTools, sdkResource: readSdkResource }), paymentRoutes(), dashboardLinkRoutes(), sessionRoutes(), consentRoutes(), dashboardRestRoutes(), creatorRestRoutes(), accountRoutes(), homeRoutes(), teamRoutes(), walletRoutes(), eventsRoutes(), campaignsRoutes(), staticAssetRoutes(), creatorsRoutes(), bonusAwardsRoutes(), freeCodesRoutes(), assetsRoutes(), agentsRoutes(), oauthRoutes(), publicRoutes(), linkRoutes()]) {
    app.use(router.routes()).use(allowedMethodsAsErrors(router));
  }
  app.on('error', (err: unknown) => deps.logger.error({ err }, 'koa error'));
  return app;
}

/** Listens and resolves with the bound server (port 0 picks a free port: tests use that). */
export function listen(app: SvcApp, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.keepAliveTimeout = 65_000;
  });
}

/**
 * Stops accepting connections, lets in-flight requests finish, then closes idle keep-alive sockets. Long-lived
 * answers (the dashboard's event streams) end on the server's 'closing' event rather than hold the grace period.
 */
export function closeServer(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    server.emit('closing');
    const timer = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    server.close(() => { clearTimeout(timer); resolve(); });
    server.closeIdleConnections();
  });
}
