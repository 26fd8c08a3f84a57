// The integration harness every test file reuses: its own database (cloned from the migrated template), a Temporal
// client and a worker on a task queue of its own against the run's dev server, and the Koa app on an ephemeral
// port. Real parts only; stub servers for systems we do not own are started by the tests that need them.
import { Client, Connection } from '@temporalio/client';
import type { TestFn } from 'ava';
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, createApp, listen, type SvcApp } from '../../api/app.js';
import { loadConfig, type Config } from '../../runtime/config.js';
import { AppChangeFeed } from '../../runtime/app-change-feed.js';
import { createLogger, type Logger } from '../../runtime/logger.js';
import { createWorker, installRuntime } from '../../worker/worker.js';
import { assertLedgerIdentity } from './books.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { requireTestEnv } from './env.js';

export interface Harness {
  config: Config;
  db: Knex;
  database: TestDatabase;
  temporal: Client;
  taskQueue: string;
  baseUrl: string;
  server: Server;
  app: SvcApp;
  logger: Logger;
  /** Resolves once the API has heard of every change committed so far (no-op without caches). */
  syncCaches: () => Promise<void>;
}

export interface HarnessOptions {
  worker?: boolean;
  api?: boolean;
  env?: Record<string, string>;
  /** Run the API with its read caches and their change feed, as `svc api` does (`syncCaches` then matters). */
  caches?: boolean;
  /** Extra routes for this file, mounted before the app starts listening (Koa composes middleware once). */
  mount?: (app: SvcApp) => void;
  /** Run the API as `svc dev` does (ApiDeps.devMode: the dev mailbox page). */
  devMode?: boolean;
  /** The API's rate-limit clock (ApiDeps.rateLimitClock; test/helpers/rate-limit-clock.ts). */
  rateLimitClock?: () => number;
  /** The worker's own database handle (e.g. through a fault proxy); the API keeps the direct one. */
  workerDb?: (database: TestDatabase) => Promise<Knex>;
}

export type HarnessAccessor = (() => Harness) & {
  /** ava runs before hooks concurrently: a test file's own before hook awaits this. */
  ready: () => Promise<Harness>;
};

/** Registers before/after hooks on `test` and returns an accessor for the running harness. */
export function useHarness(test: TestFn<unknown>, opts: HarnessOptions = {}): HarnessAccessor {
  let harness: Harness | undefined;
  const stops: (() => Promise<void>)[] = [];
  let resolveReady: (h: Harness) => void = () => undefined;
  let rejectReady: (e: unknown) => void = () => undefined;
  const ready = new Promise<Harness>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);

  test.before(async () => {
    try {
      resolveReady(await start());
    } catch (err) {
      rejectReady(err);
      throw err;
    }
  });

  async function start(): Promise<Harness> {
    const env = requireTestEnv();
    const database = await createTestDatabase();
    stops.push(() => database.drop());
    const taskQueue = `test-${randomBytes(6).toString('hex')}`;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PORT: '1',
      SVC_MASTER_KEY: randomBytes(32).toString('base64'),
      ...opts.env,
    });
    const logger = createLogger(config.LOG_LEVEL, 'test');
    const connection = await Connection.connect({ address: env.temporalAddress });
    stops.push(() => connection.close());
    const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });

    if (opts.worker !== false) {
      installRuntime(logger, { handleSignals: false });
      const { worker, connection: workerConnection } = await createWorker({
        address: env.temporalAddress,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue,
        db: opts.workerDb ? await opts.workerDb(database) : database.db,
        shutdownGraceTime: 2000,
        config,
      });
      const running = worker.run();
      stops.push(async () => {
        worker.shutdown();
        await running;
        await workerConnection.close();
      });
    }

    let server: Server | undefined;
    let baseUrl = '';
    let appChanges: AppChangeFeed | undefined;
    if (opts.caches) {
      const feed = new AppChangeFeed(database.url, logger);
      await feed.start();
      stops.push(() => feed.close());
      appChanges = feed;
    }
    const app = createApp({
      config,
      db: database.db,
      temporal,
      logger,
      appChanges,
      devMode: opts.devMode,
      rateLimitClock: opts.rateLimitClock,
    });
    opts.mount?.(app);
    if (opts.api !== false) {
      server = await listen(app, 0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      config.BASE_URL = baseUrl;
      config.DASHBOARD_URL = `${baseUrl}/dashboard`;
      const s = server;
      stops.push(() => closeServer(s, 1000));
    }
    harness = {
      config,
      db: database.db,
      database,
      temporal,
      taskQueue,
      baseUrl,
      server: server!,
      app,
      logger,
      syncCaches: async () => {
        await appChanges?.sync();
      },
    };
    return harness;
  }

  // The ledger identity (test/helpers/books.ts) after every test of every file.
  test.afterEach.always('ledger identity', async (t) => {
    if (!harness) return;
    await assertLedgerIdentity(t, harness.db);
  });

  test.after.always(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  });

  const accessor = () => {
    if (!harness) throw new Error('harness not started');
    return harness;
  };
  return Object.assign(accessor, { ready: () => ready });
}
