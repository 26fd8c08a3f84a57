// The two production roles, each startable alone (`svc api`, `svc worker`) or together inside `svc dev`.
import type { Knex } from 'knex';
import type { Server } from 'node:http';
import type { Config } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import { AppChangeFeed } from '../runtime/app-change-feed.js';
import { createRedis, redisReady } from '../runtime/redis.js';
import { assertPortFree } from '../runtime/ports.js';
import { serveMetrics } from '../runtime/metrics-server.js';
import { createTemporalClient } from '../runtime/temporal-client.js';
import type { TemporalConnectExtras } from '../runtime/temporal-target.js';
import { assertWorkflowGeneration } from '../runtime/workflow-generation.js';

export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';

/** The Temporal frontend both roles connect to (the namespace is config.TEMPORAL_NAMESPACE). */
export interface TemporalEndpoint {
  address: string;
  extras?: TemporalConnectExtras;
}

export interface Running {
  stop(): Promise<void>;
}

/**
 * The worker also delivers the email outbox when SMTP is configured; under `svc dev` always, each mail written to
 * stderr with its links first (and polled every second, so a sign-up's link shows up while the developer looks).
 */
async function startOutbox(config: Config, db: Knex, logger: Logger, devMode: boolean): Promise<{ stop(): Promise<void> } | undefined> {
  if (!config.SMTP_URL && !devMode) return undefined;
  const { createSmtpTransport } = await import('../clients/smtp.js');
  const { createConsoleTransport } = await import('../clients/console-mail.js');
  const { startOutboxSender } = await import('../jobs/outbox-sender.js');
  const smtp = config.SMTP_URL ? createSmtpTransport(config.SMTP_URL, config.EMAIL_FROM) : undefined;
  const transport = devMode ? createConsoleTransport((text) => process.stderr.write(text), smtp) : smtp!;
  const sender = startOutboxSender(db, transport, logger, devMode ? 1000 : undefined);
  return {
    stop: async () => {
      await sender.stop();
      smtp?.close();
    },
  };
}

/** What only `svc dev` turns on (never read from the environment): the dev mailbox page and mails on stderr. */
export interface DevOptions {
  devMode?: boolean;
}

export async function startApi(
  config: Config,
  db: Knex,
  logger: Logger,
  temporal: TemporalEndpoint,
  databaseUrl: string,
  opts: DevOptions = {},
): Promise<Running & { server: Server }> {
  // Loaded on demand: the other commands (config, seed, migrate, events) never need the HTTP app and its OAuth server.
  const { closeServer, createApp, listen } = await import('../api/app.js');
  await assertPortFree(config.PORT, 'PORT', 'The API');
  const client = createTemporalClient(temporal.address, config.TEMPORAL_NAMESPACE, temporal.extras);
  const appChanges = new AppChangeFeed(databaseUrl, logger);
  await appChanges.startOrRetry();
  const redis = config.REDIS_URL ? createRedis(config.REDIS_URL, logger) : undefined;
  if (redis) await redisReady(redis);
  const app = createApp({ config, db, temporal: client, logger, appChanges, redis, devMode: opts.devMode === true });
  const server = await listen(app, config.PORT, config.HOST);
  return {
    server,
    stop: async () => {
      await closeServer(server);
      await appChanges.close();
      redis?.disconnect();
      await client.connection.close();
    },
  };
}

async function startPayoutUpkeep(db: Knex, client: ReturnType<typeof createTemporalClient>, config: Config, logger: Logger): Promise<void> {
  const { ensureBalanceCheckSchedule, reconcilePayoutSchedules } = await import('../workflow-clients/payout-runs.js');
  const deps = { db, client, taskQueue: config.TEMPORAL_TASK_QUEUE, catchupHours: config.PAYOUT_SCHEDULE_CATCHUP_HOURS };
  try {
    const schedules = await reconcilePayoutSchedules(deps);
    await ensureBalanceCheckSchedule(deps);
    logger.info({ schedules }, 'payout schedules reconciled');
  } catch (err) {
    logger.error({ err }, 'payout schedules could not be reconciled (next worker start tries again)');
  }
}

export interface WorkerRoleOptions extends DevOptions {
  /** Serve the worker's own /metrics on this port (`svc worker`: WORKER_METRICS_PORT; 0 or unset: none). */
  metricsPort?: number;
}

/**
 * The Temporal worker, plus its background jobs: the purchase-inbox drainer, the creator digests and the payout
 * resume pass (always) and the email outbox (with SMTP_URL, or under `svc dev`).
 */
export async function startWorker(
  config: Config,
  db: Knex,
  logger: Logger,
  temporal: TemporalEndpoint,
  opts: WorkerRoleOptions = {},
): Promise<Running & { done: Promise<void> }> {
  // Open runs recorded by another generation of the workflow code would fail replay: refuse before polling.
  await assertWorkflowGeneration(db);
  // Loaded on demand: the API process never needs the worker's native runtime.
  const { createWorker } = await import('../worker/worker.js');
  const { createWorkerMetrics } = await import('../worker/metrics.js');
  const { startInboxDrainer } = await import('../jobs/inbox-drainer.js');
  const { resumeVoidedPolls } = await import('../jobs/play-voided-resume.js');
  const { startCreatorDigest } = await import('../jobs/creator-digest.js');
  const { startOwnerReviewDigest } = await import('../jobs/owner-review-digest.js');
  const { resumeNotificationHistories } = await import('../jobs/notification-history-resume.js');
  const { startPayoutResume } = await import('../jobs/payout-resume.js');
  const { startJoinSightingPrune } = await import('../jobs/join-sighting-prune.js');
  const metrics = createWorkerMetrics(db);
  const { worker, connection } = await createWorker({
    address: temporal.address,
    connect: temporal.extras,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    db,
    config,
    shutdownGraceTime: config.SHUTDOWN_GRACE_MS,
    onEventFailed: (e) => metrics.failedEvents.inc({ event_type: e.eventType }),
  });
  // Metrics are no reason to stop processing money events: a taken port is logged and the worker runs without them.
  const metricsServer = opts.metricsPort
    ? await serveMetrics(metrics.registry, opts.metricsPort, config.HOST).catch((err: unknown) => {
        logger.error(
          { err, port: opts.metricsPort },
          'worker metrics not served: WORKER_METRICS_PORT is taken or cannot be bound (set another port, or 0)',
        );
        return undefined;
      })
    : undefined;
  const client = createTemporalClient(temporal.address, config.TEMPORAL_NAMESPACE, temporal.extras);
  const drainer = startInboxDrainer(
    { db, temporal: client, taskQueue: config.TEMPORAL_TASK_QUEUE },
    logger.child({ component: 'inbox-drainer' }),
    {},
    {
      delivered: (n) => metrics.inboxDelivered.inc(n),
      failed: (n) => metrics.inboxHandOverFailures.inc(n),
    },
  );
  // Every Android store-direct app has its voided-purchases poll (idempotent: a running one is left alone).
  void resumeVoidedPolls(db, client, config.TEMPORAL_TASK_QUEUE, logger);
  // Every iOS store-direct app has its hourly Notification History catch-up.
  void resumeNotificationHistories(db, client, config.TEMPORAL_TASK_QUEUE, config.APPLE_NOTIFICATION_HISTORY_INTERVAL_MS, logger);
  // Payout schedules follow PostgreSQL; runs left between their two phases are taken up at start and every few minutes.
  void startPayoutUpkeep(db, client, config, logger);
  const payoutResume = startPayoutResume(
    { db, client, taskQueue: config.TEMPORAL_TASK_QUEUE },
    config,
    logger.child({ component: 'payout-resume' }),
  );
  const outbox = await startOutbox(config, db, logger, opts.devMode === true);
  const digests = startCreatorDigest(db, config, logger.child({ component: 'creator-digest' }));
  const joinPrune = startJoinSightingPrune(db, logger.child({ component: 'join-sighting-prune' }));
  const ownerDigests = startOwnerReviewDigest(db, config, logger.child({ component: 'owner-review-digest' }));
  const done = worker.run().finally(async () => {
    await drainer.stop();
    await digests.stop();
    await joinPrune.stop();
    await ownerDigests.stop();
    await payoutResume.stop();
    await outbox?.stop();
    await metricsServer?.close();
    await client.connection.close();
    await connection.close();
  });
  done.catch((err: unknown) => logger.error({ err }, 'worker stopped with an error'));
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, outbox: Boolean(outbox), metricsPort: opts.metricsPort || null }, 'worker polling');
  return {
    done,
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
    },
  };
}
