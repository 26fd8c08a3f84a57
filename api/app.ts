// Composes the Koa application: cross-cutting middleware first (request context, errors, metrics, body,
// authentication), then one router per surface. Each surface's routes file reads as its table of contents.
import Koa from 'koa';
import type { Server } from 'node:http';
import { agentRoutes } from './agent/routes.js';
import { authenticate } from './auth/authenticate.js';
import { webRoutes } from './dashboard/routes.js';
import { portalPayoutRoutes, portalRoutes } from './creator-portal/routes.js';
import { surfaceGuard } from './auth/surfaces.js';
import { hardDenyAgents } from './agent/hard-denied.js';
import { csrfGuard } from './auth/csrf.js';
import { agentChallenge } from './oauth/challenge.js';
import { oauthRoutes, oauthServer } from './oauth/routes.js';
import type { ApiDeps, AppContext, RequestState } from './context.js';
import { healthRoutes } from './health/routes.js';
import { linkRoutes } from './links/routes.js';
import { mcpRoutes } from './mcp/koa-mount.js';
import { readSdkResource, registryTools } from './mcp/registry.js';
import { publicRoutes } from './public/routes.js';
import { SecretBox } from '../lib/secret-box.js';
import { createApiCaches } from './sdk-caches.js';
import { sdkRoutes } from './sdk/routes.js';
import { mavenRoutes } from './sdk-maven/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { jsonBody } from './middleware/json-body.js';
import { allowedMethodsAsErrors } from './middleware/errors.js';
import { createMetrics } from './middleware/metrics.js';
import { RedisSlidingWindowCounter, SlidingWindowCounter } from '../runtime/rate-counter.js';
import { edge } from './middleware/request-context.js';

export type SvcApp = Koa<RequestState, AppContext>;

export function createApp(deps: ApiDeps): SvcApp {
  // Each proxy appends the address it received from, so only the last TRUST_PROXY_HOPS entries are ours to trust.
  const app = new Koa<RequestState, AppContext>({
    proxy: deps.config.TRUST_PROXY,
    proxyIpHeader: 'X-Forwarded-For',
    maxIpsCount: deps.config.TRUST_PROXY_HOPS,
  });
  app.context.deps = deps;
  app.context.caches = createApiCaches(deps.appChanges);
  app.context.secretBox = deps.config.SVC_MASTER_KEY ? new SecretBox(deps.config.SVC_MASTER_KEY) : undefined;
  const clock = deps.rateLimitClock ?? Date.now;
  app.context.rateCounter = deps.redis ? new RedisSlidingWindowCounter(deps.redis, deps.logger, clock) : new SlidingWindowCounter(clock);
  const metrics = createMetrics();
  const health = healthRoutes(metrics.registry);

  app.use(edge(metrics));
  app.use(jsonBody);
  app.use(oauthServer);
  app.use(agentChallenge);
  app.use(authenticate);
  app.use(surfaceGuard);
  app.use(csrfGuard);
  app.use(hardDenyAgents); // an agent asking for a hard-denied action (a delete, a money write...): 403 naming it
  // One router per surface. Referral links (`/{slug}/{code}`) match any two segments, so they go last.
  const surfaces = [
    health, // /healthz, /readyz, /metrics
    sdkRoutes(), // /api/sdk/*
    mavenRoutes(), // /sdk/maven/*: the Android SDK as a Maven repository
    webhookRoutes(), // /api/webhooks/* (subscription provider, direct purchase, Stripe)
    agentRoutes(), // /api/agent/*
    mcpRoutes({ extraTools: registryTools, sdkResource: readSdkResource }), // /mcp
    portalPayoutRoutes(), // /dashboard/creator/payout-account/*: a creator connects where payouts go (Stripe Connect)
    portalRoutes(), // /dashboard/creator/*: the creator portal (its own principal)
    // /dashboard/* pages and forms, dashboard REST /api/apps|campaigns|invitations|bonus-awards|assets/*
    webRoutes({ devMode: deps.devMode }),
    oauthRoutes(), // /oauth/*, /.well-known/*, /api/grants
    publicRoutes(), // /api/public/*
    linkRoutes(), // /{slug}/{code}
  ];
  for (const router of surfaces) {
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
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
