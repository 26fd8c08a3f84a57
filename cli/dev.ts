// `svc dev` (= `npm start`): everything a newcomer needs in one process tree. Embedded PostgreSQL and the Temporal
// dev server run as child process groups that only this process stops, in order, after the worker has drained.
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createDb, migrateLatest, withDatabase } from '../runtime/db.js';
import { clearDevState, dataDirOf, devMasterKey, readDevState, readJsonFile, writeDevState, writeJsonFile } from '../runtime/dev-state.js';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { stopStale } from '../runtime/managed-child.js';
import { assertPortFree } from '../runtime/ports.js';
import { createLogger } from '../runtime/logger.js';
import { resolveBinary, TEMPORAL_CLI } from '../runtime/temporal-binaries.js';
import { startTemporalDevServer } from '../runtime/temporal-dev-server.js';
import { loadConfig } from '../runtime/config.js';
import { withTemporalTarget } from '../runtime/temporal-target.js';
import { createTemporalClient } from '../runtime/temporal-client.js';
import { rehydrateConversions } from '../workflow-clients/conversion-rehydrate.js';
import { installRuntime } from '../worker/worker.js';
import { systemCheckWorkflow, systemCheckWorkflowId } from '../workflows/system-check.js';
import { startApi, startWorker, type TemporalEndpoint } from './processes.js';
import { seedDemoHistory, type DemoTarget } from '../actions/demo-history.js';
import { seedDemoAccount, type SeedResult } from '../actions/seed.js';
import { ensureDatabase } from './database.js';
import { describe as describeRehydration } from './workflows.js';

type Stop = () => Promise<void>;

// The dev server's SQLite file in WAL mode without a sync per commit: several times the throughput of the default
// rollback journal (`npm run bench:webhooks`, svc dev shape). A crash of the machine may lose the last commits of
// the dev server's own state; PostgreSQL, the record, is untouched.
const DEV_SQLITE_PRAGMAS = ['journal_mode=WAL', 'synchronous=NORMAL'];

export interface DevFlags {
  /** Empty the data folder first (a fresh database and Temporal; the demo account is seeded again). */
  reset?: boolean;
  /** Restart open conversion runs of an older workflow generation from PostgreSQL before the worker starts. */
  rehydrate?: boolean;
}

export async function runDev(flags: DevFlags = {}): Promise<void> {
  const env = { ...process.env };
  env.TRUST_PROXY ??= 'true';
  // Temporal from the environment or a profile (@temporalio/envconfig) means an existing server: none is started.
  const { config, temporal: target } = withTemporalTarget(loadConfig(env), env);
  const logger = createLogger(config.LOG_LEVEL);
  const dataDir = dataDirOf(config.SVC_DATA_DIR);
  if (readDevState(dataDir))
    throw new Error(`svc dev is already running for ${dataDir}. Stop it first, or set SVC_DATA_DIR to another directory.`);
  if (flags.reset) {
    await stopStale(path.join(dataDir, 'temporal.pid'), 'start-dev');
    for (const entry of readdirSync(dataDir)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    console.log(`Data folder ${dataDir} emptied (--reset).`);
  }
  config.SVC_MASTER_KEY ??= devMasterKey(dataDir);

  const stops: Stop[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping: API, worker (draining), Temporal, PostgreSQL...');
    for (const stop of stops.reverse()) {
      await stop().catch((err: unknown) => logger.error({ err }, 'error while stopping'));
    }
    clearDevState(dataDir);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        console.log('Forced exit.');
        process.exit(1);
      }
      void shutdown(0);
    });
  }

  try {
    // A Temporal dev server left behind by a killed earlier run is ours to stop; then every port is checked up
    // front, so a clash is reported before anything was started.
    await stopStale(path.join(dataDir, 'temporal.pid'), 'start-dev');
    await assertPortFree(config.PORT, 'PORT', 'The API');
    if (!config.DATABASE_URL && !existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))) {
      await assertPortFree(config.EMBEDDED_PG_PORT, 'EMBEDDED_PG_PORT', 'Embedded PostgreSQL');
    }
    if (!config.TEMPORAL_ADDRESS) {
      await assertPortFree(config.TEMPORAL_PORT, 'TEMPORAL_PORT', 'The Temporal dev server');
      await assertPortFree(config.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT', 'The Temporal Web UI');
    }
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres({
        dataDir: path.join(dataDir, 'postgres'),
        port: config.EMBEDDED_PG_PORT,
        persistent: true,
        logFile: path.join(dataDir, 'postgres.log'),
      });
      stops.push(() => pg.stop());
      databaseUrl = withDatabase(pg.url, 'svc');
      await ensureDatabase(databaseUrl);
    }

    let temporalAddress = config.TEMPORAL_ADDRESS;
    let temporalUi: string | undefined;
    if (!temporalAddress) {
      const binary = await resolveBinary(TEMPORAL_CLI);
      const server = await startTemporalDevServer({
        binary: binary.path,
        port: config.TEMPORAL_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        namespace: config.TEMPORAL_NAMESPACE,
        dbFilename: path.join(dataDir, 'temporal.db'),
        sqlitePragmas: DEV_SQLITE_PRAGMAS,
        logFile: path.join(dataDir, 'temporal.log'),
        pidFile: path.join(dataDir, 'temporal.pid'),
      });
      stops.push(() => server.stop());
      temporalAddress = server.address;
      temporalUi = server.uiUrl;
      // The dashboard's live events link purchases to their workflow in this UI (unless one was configured).
      config.TEMPORAL_UI_URL ??= temporalUi;
    }

    const db = createDb(databaseUrl, config.DATABASE_POOL_MAX);
    stops.push(() => db.destroy());
    const applied = await migrateLatest(db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');

    installRuntime(logger, { handleSignals: false });
    const temporal = { address: temporalAddress, extras: target.extras };
    if (flags.rehydrate) {
      const client = createTemporalClient(temporal.address, config.TEMPORAL_NAMESPACE, temporal.extras);
      const summary = await rehydrateConversions(db, client, {
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        holdingDayMs: config.HOLDING_PERIOD_DAY_MS,
      }).finally(() => client.connection.close());
      console.log(describeRehydration(summary));
    }
    const worker = await startWorker(config, db, logger, temporal, { devMode: true });
    stops.push(() => worker.stop());
    const api = await startApi(config, db, logger, temporal, databaseUrl, { devMode: true });
    stops.push(() => api.stop());

    writeDevState(dataDir, {
      pid: process.pid,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: config.TEMPORAL_NAMESPACE,
      BASE_URL: config.BASE_URL,
      DASHBOARD_URL: config.DASHBOARD_URL,
      temporal_ui_url: temporalUi ?? null,
    });

    const demoFile = path.join(dataDir, 'demo.json');
    let demo = readJsonFile<SeedResult>(demoFile);
    let history: string | undefined;
    if (!demo) {
      demo = await seedDemoAccount({ db }, { baseUrl: config.BASE_URL, dashboardUrl: config.DASHBOARD_URL });
      // The demo's 30 days of activity, through the worker that is already running (actions/demo-history.ts).
      const client = createTemporalClient(temporal.address, config.TEMPORAL_NAMESPACE, temporal.extras);
      const h = await seedDemoHistory(db, client, config.TEMPORAL_TASK_QUEUE, demoTarget(demo)).finally(() => client.connection.close());
      history =
        `${h.purchaseEvents} purchase events (${h.refunds} refund), ${h.clicks} ` +
        `clicks, ${h.installs} installs, ${h.creators} creators, a payout ` +
        `to ${h.payout?.payouts.length ?? 0} creator(s) (${h.payout?.held_over.length ?? 0} held ` +
        `over); seeded in ${(h.tookMs / 1000).toFixed(1)} s`;
      writeJsonFile(demoFile, demo);
    }
    const pipeline = await checkPipeline(temporal, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE);
    printBanner({
      config,
      temporalUi,
      demo,
      pipeline,
      dataDir,
      history,
      external: { db: Boolean(config.DATABASE_URL), temporal: config.TEMPORAL_ADDRESS ? target.source : undefined },
    });
  } catch (err) {
    console.error(`\nsvc dev could not start: ${err instanceof Error ? err.message : String(err)}`);
    await shutdown(1);
  }
}

/** The demo account's ids for its history (the tag is the one in its email, demo+TAG@example.com). */
function demoTarget(demo: SeedResult): DemoTarget {
  const tag = /^demo\+([0-9a-f]+)@/.exec(demo.user_email)?.[1] ?? '1';
  return { orgId: demo.org_id, appId: demo.app_id, campaignId: demo.campaign_id, creatorCode: demo.creator_code, tag };
}

/** Runs the system-check workflow end to end so the banner says whether the whole chain works. */
async function checkPipeline(temporal: TemporalEndpoint, namespace: string, taskQueue: string): Promise<string> {
  const connection = await Connection.connect({ address: temporal.address, ...temporal.extras });
  try {
    const client = new Client({ connection, namespace });
    const result = await client.workflow.execute(systemCheckWorkflow, {
      taskQueue,
      workflowId: systemCheckWorkflowId(randomUUID()),
      workflowExecutionTimeout: '30 seconds',
    });
    return `ok (migration ${result.latestMigration ?? 'none'})`;
  } catch (err) {
    return `FAILED: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    await connection.close();
  }
}

/** Which of the banner's services are not svc dev's own: '  (PostgreSQL: DATABASE_URL)  (Temporal: ...)' or ''. */
function externalNotes(external: { db: boolean; temporal?: 'environment' | 'profile' | 'none' }): string {
  const db = external.db ? '  (PostgreSQL: DATABASE_URL)' : '';
  const temporal = external.temporal === 'profile' ? '  (Temporal: profile)' : external.temporal ? '  (Temporal: TEMPORAL_ADDRESS)' : '';
  return db + temporal;
}

function printBanner(b: {
  config: ReturnType<typeof loadConfig>;
  temporalUi: string | undefined;
  demo: SeedResult;
  pipeline: string;
  dataDir: string;
  history?: string;
  external: { db: boolean; temporal?: 'environment' | 'profile' | 'none' };
}): void {
  const { config, demo } = b;
  const lines = [
    '',
    'svc is running',
    `  API            ${config.BASE_URL}   (health: ${config.BASE_URL}/readyz)`,
    `  Temporal UI    ${b.temporalUi ?? '(external Temporal: use its own UI)'}`,
    `  MCP            ${config.BASE_URL}/mcp`,
    `  Dashboard      ${config.DASHBOARD_URL}   login: ${demo.user_email} / ${demo.user_password}`,
    `  Mailbox        ${config.DASHBOARD_URL}/dev/mailbox   (every mail is printed here too; npx svc mail --to EMAIL)`,
    `  Demo SDK key   ${demo.sdk_key}`,
    `  Agent key      ${demo.agent_key}`,
    `  Demo app       ${demo.app_id}  campaign ${demo.campaign_id}  creator code ${demo.creator_code}`,
    ...(b.history ? [`  Demo history   ${b.history}`] : []),
    `  Pipeline check ${b.pipeline}`,
    `  Node           ${process.version}`,
    `  Data           ${b.dataDir}${externalNotes(b.external)}`,
    '  (the demo webhook secret is in demo.json in the data directory)',
    'Ctrl-C stops everything.',
    '',
  ];
  console.log(lines.join('\n'));
}
