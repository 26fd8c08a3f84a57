// What `svc worker` tells Prometheus on its own /metrics (WORKER_METRICS_PORT): purchase events recorded as failed
// (a counter to alert on, and a gauge of those still waiting for a re-drive), the inbox (waiting rows, hand-overs,
// failed hand-overs), and the Node process metrics. The gauges are read from PostgreSQL at each scrape; while it
// is away they keep their last value.
import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { countFailedPurchaseEvents } from '../db/purchase-events.js';
import { countWaitingInboxRows } from '../db/purchase-inbox.js';

export interface WorkerMetrics {
  registry: Registry;
  failedEvents: Counter<'event_type'>;
  inboxDelivered: Counter;
  inboxHandOverFailures: Counter;
}

export function createWorkerMetrics(db: Knex): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const fromDb = (read: (db: Knex) => Promise<number>) =>
    async function collect(this: Gauge) {
      try {
        this.set(await read(db));
      } catch {
        // PostgreSQL away: keep the last value rather than failing the scrape.
      }
    };
  new Gauge({
    name: 'svc_purchase_inbox_waiting',
    help: 'Inbox events not yet handed to their conversion workflow',
    registers: [registry],
    collect: fromDb(countWaitingInboxRows),
  });
  new Gauge({
    name: 'svc_purchase_events_failed',
    help: 'Purchase events recorded as failed and not re-driven yet (svc events retry)',
    registers: [registry],
    collect: fromDb(countFailedPurchaseEvents),
  });
  return {
    registry,
    failedEvents: new Counter({
      name: 'svc_purchase_events_failed_total',
      help: 'Purchase events this worker recorded as failed (could not be applied after bounded attempts)',
      labelNames: ['event_type'] as const,
      registers: [registry],
    }),
    inboxDelivered: new Counter({
      name: 'svc_purchase_inbox_delivered_total',
      help: 'Inbox events the drainer handed to their conversion workflow',
      registers: [registry],
    }),
    inboxHandOverFailures: new Counter({
      name: 'svc_purchase_inbox_handover_failures_total',
      help: 'Failed hand-overs of the inbox drainer (Temporal away or slow)',
      registers: [registry],
    }),
  };
}
