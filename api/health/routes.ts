// Operator endpoints: the API root's index, liveness, readiness (PostgreSQL and Temporal reachable), Prometheus metrics.
import { Router } from '@koa/router';
import type { Registry } from 'prom-client';
import { isDatabaseReachable } from '../../db/health.js';
import { isTemporalReachable } from '../../runtime/temporal-client.js';
import type { AppContext, RequestState } from '../context.js';

export function healthRoutes(registry: Registry): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();

  // The API root, the first URL `svc dev` prints: what this server is and where each surface starts.
  router.get('/', (ctx) => {
    const base = ctx.deps.config.BASE_URL;
    ctx.body = {
      service: 'svc',
      description: 'Referral and affiliate attribution for mobile apps',
      links: {
        readiness: `${base}/readyz`,
        client_api: `${base}/api/sdk`,
        agent_api_openapi: `${base}/api/agent/openapi.json`,
        mcp: `${base}/mcp`,
        oauth_metadata: `${base}/.well-known/oauth-authorization-server`,
        dashboard: ctx.deps.config.DASHBOARD_URL,
      },
    };
  });

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const [postgres, temporal] = await Promise.all([isDatabaseReachable(ctx.deps.db), isTemporalReachable(ctx.deps.temporal)]);
    const ready = postgres && temporal;
    ctx.status = ready ? 200 : 503;
    const down = [...(postgres ? [] : ['PostgreSQL']), ...(temporal ? [] : ['Temporal'])];
    ctx.body = ready
      ? { status: 'ready', checks: { postgres, temporal } }
      : { status: 'not ready', detail: `${down.join(' and ')} unreachable`, checks: { postgres, temporal } };
  });

  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });

  return router;
}
