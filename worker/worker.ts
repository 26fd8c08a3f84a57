// The worker process: connection, bundle, activities, task queue. Wiring only.
import {
  NativeConnection,
  Runtime,
  Worker,
  bundleWorkflowCode,
  type WorkflowBundleWithSourceMap,
  makeTelemetryFilterString,
} from '@temporalio/worker';
import type { Knex } from 'knex';
import type { Config } from '../runtime/config.js';
import { fileURLToPath } from 'node:url';
import { createActivities } from '../activities/index.js';
import type { EventFailedObserver } from '../activities/purchases/failures.js';
import type { TemporalConnectExtras } from '../runtime/temporal-target.js';
import type { Logger } from '../runtime/logger.js';

const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

let runtimeInstalled = false;

/**
 * Installs the SDK runtime once per process, logging through pino. `handleSignals: false` when the caller
 * orchestrates shutdown itself (`svc dev` drains the worker before stopping the database).
 */
export function installRuntime(logger: Logger, opts: { handleSignals: boolean }): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const log = logger.child({ component: 'temporal' });
  Runtime.install({
    logger: {
      log: (level, message, meta) =>
        log[level === 'TRACE' ? 'trace' : (level.toLowerCase() as 'debug' | 'info' | 'warn' | 'error')](meta ?? {}, message),
      trace: (m, meta) => log.trace(meta ?? {}, m),
      debug: (m, meta) => log.debug(meta ?? {}, m),
      info: (m, meta) => log.info(meta ?? {}, m),
      warn: (m, meta) => log.warn(meta ?? {}, m),
      error: (m, meta) => log.error(meta ?? {}, m),
    },
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } },
    shutdownSignals: opts.handleSignals ? ['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGUSR2'] : [],
  });
}

let cachedBundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundles the workflow code once per process (tests start many workers from one bundle). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  cachedBundle ??= bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
  return cachedBundle;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  /** TLS, API key and gRPC metadata from the Temporal profile (runtime/temporal-target.ts). */
  connect?: TemporalConnectExtras;
  taskQueue: string;
  db: Knex;
  /** The running configuration (store and FX URLs, APPLE_ROOT_CERTS, SVC_MASTER_KEY), read by activities at call time. */
  config: Config;
  shutdownGraceTime?: number;
  /** Told each time an event is newly recorded as failed (the worker's Prometheus counter). */
  onEventFailed?: EventFailedObserver;
  /** Tests only: another workflow code than workflows/ (an earlier generation's, to leave its runs behind). */
  workflowBundle?: WorkflowBundleWithSourceMap;
}

export async function createWorker(opts: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address, ...opts.connect });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: opts.workflowBundle ?? (await workflowBundle()),
    activities: createActivities({
      db: opts.db,
      platformFeePercent: opts.config.PLATFORM_FEE_PERCENT,
      config: opts.config,
      onEventFailed: opts.onEventFailed,
    }),
    shutdownGraceTime: opts.shutdownGraceTime ?? 10_000,
  });
  return { worker, connection };
}
