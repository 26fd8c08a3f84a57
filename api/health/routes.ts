// Operator endpoints: liveness, readiness (PostgreSQL and Temporal reachable), Prometheus metrics.
import { Router } from '@koa/router';
import type { Registry } from 'prom-client';
import { isDatabaseReachable } from '../../db/health.js';
import { isTemporalReachable } from '../../runtime/temporal-client.js';
import type { AppContext, RequestState } from '../context.js';

export function healthRoutes(registry: Registry): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const [postgres, temporal] = await Promise.all([
      isDatabaseReachable(ctx.deps.db),
      isTemporalReachable(ctx.deps.temporal),
    ]);
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
