// HTTP metrics for /metrics: one histogram labelled by matched route (never the raw path: ids would explode the
// label set), method and status. The edge middleware records each request.
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context.js';

export interface HttpMetrics {
  registry: Registry;
  observe(ctx: AppContext, seconds: number): void;
}

export function createMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    observe: (ctx, seconds) => {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      duration.observe({ method: ctx.method, route: String(route), status: String(ctx.status) }, seconds);
    },
  };
}
