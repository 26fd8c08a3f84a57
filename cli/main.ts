// `svc`: the one binary with every role and operator command (CONTRACT.md "Commands").
import { parseArgs } from 'node:util';
import { createAgentKey } from '../db/agent-keys.js';
import { findApp } from '../db/apps.js';
import { findOrganization } from '../db/organizations.js';
import { ConfigError, configMarkdownTable, loadConfig, type Config } from '../lib/config.js';
import { parseScopes, SCOPES } from '../lib/scopes.js';
import { createDb, migrateLatest, migrationConfig } from '../runtime/db.js';
import { dataDirOf, readDevState } from '../runtime/dev-state.js';
import { createLogger } from '../runtime/logger.js';
import { WorkflowGenerationError } from '../runtime/workflow-generation.js';
import { createTemporalClient } from '../runtime/temporal-client.js';
import { withTemporalTarget } from '../runtime/temporal-target.js';
import { redriveFailedEvents } from '../workflow-clients/purchase-inbox.js';
import { DEFAULT_TEMPORAL_ADDRESS, startApi, startWorker } from './processes.js';
import { seedDemoAccount } from './seed.js';

const USAGE = `usage: svc <command>
  dev [--reset] [--rehydrate]           everything for local development (npm start); --reset empties the data
                                        folder first; --rehydrate moves open workflows of an older generation
  api                                   the HTTP API alone (env: DATABASE_URL, TEMPORAL_ADDRESS, PORT, ...)
  worker                                the Temporal worker alone
  migrate [--status] [--rollback]       apply (or show, or roll back the last batch of) database migrations
  seed --json                           create a new demo organization and print its credentials as JSON
  agent-key create --org ORG_ID [--scopes a,b] [--name NAME] --json
  events retry --app APP_ID [--event EVENT_ID] [--json]
                                        re-drive purchase events recorded as failed (after a fix); exit 1 if any still fail
  payouts run --org ORG_ID [--run-id ID] [--dry-run] [--json]
                                        pay the organization's payable commissions (clawbacks netted), once per run id
  workflows rehydrate [--json]          restart open conversion workflows of an older generation from PostgreSQL
  config [--markdown]                   print the configuration variables and their defaults`;

class UsageError extends Error {}

/** Variables that may carry credentials: never printed. */
const SECRET_VARIABLES = new Set(['SVC_MASTER_KEY', 'SMTP_URL', 'DATABASE_URL', 'REDIS_URL', 'TEMPORAL_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);

/**
 * Operator commands run next to a `svc dev` in another terminal: without DATABASE_URL they use that instance's
 * embedded database and Temporal.
 */
function operatorConfig(): Config {
  const base = loadConfig(process.env);
  if (base.DATABASE_URL) return base;
  const dev = readDevState(dataDirOf(base.SVC_DATA_DIR));
  if (!dev) throw new ConfigError(['DATABASE_URL'], 'DATABASE_URL is not set and no `svc dev` is running for this data directory (start one with `npm start`, or set DATABASE_URL).');
  const { pid: _pid, temporal_ui_url: _ui, ...vars } = dev;
  return loadConfig({ ...vars, ...process.env, DATABASE_URL: dev.DATABASE_URL });
}

function requireDatabaseUrl(config: Config): string {
  if (!config.DATABASE_URL) throw new ConfigError(['DATABASE_URL'], 'DATABASE_URL must be set for this command.');
  return config.DATABASE_URL;
}

async function withDb<T>(config: Config, fn: (db: ReturnType<typeof createDb>) => Promise<T>): Promise<T> {
  const db = createDb(requireDatabaseUrl(config), 2);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

async function runRole(role: 'api' | 'worker'): Promise<void> {
  const { config, temporal: target } = withTemporalTarget(loadConfig());
  const logger = createLogger(config.LOG_LEVEL, `svc-${role}`);
  const databaseUrl = requireDatabaseUrl(config);
  const db = createDb(databaseUrl, config.DATABASE_POOL_MAX);
  const temporal = { address: config.TEMPORAL_ADDRESS ?? DEFAULT_TEMPORAL_ADDRESS, extras: target.extras };
  logger.info({ temporal: temporal.address, namespace: config.TEMPORAL_NAMESPACE, from: target.source, tls: Boolean(target.extras.tls), apiKey: Boolean(target.extras.apiKey) }, 'temporal target');
  if (role === 'worker') {
    // The SDK's own signal handling drains the worker on SIGINT/SIGTERM; run() then resolves. Imported here so
    // `svc api` never loads the worker's native runtime.
    const { installRuntime } = await import('../worker/worker.js');
    installRuntime(logger, { handleSignals: true });
    const worker = await startWorker(config, db, logger, temporal, { metricsPort: config.WORKER_METRICS_PORT });
    await worker.done;
    await db.destroy();
    return;
  }
  const api = await startApi(config, db, logger, temporal, databaseUrl);
  logger.info({ url: config.BASE_URL }, 'api listening');
  const stop = async () => {
    await api.stop();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest, allowPositionals: true, strict: true,
    options: {
      json: { type: 'boolean' }, status: { type: 'boolean' }, rollback: { type: 'boolean' }, markdown: { type: 'boolean' },
      org: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, app: { type: 'string' }, event: { type: 'string' },
      'run-id': { type: 'string' }, 'dry-run': { type: 'boolean' }, reset: { type: 'boolean' }, rehydrate: { type: 'boolean' },
    },
  });
  switch (command) {
    case 'dev':
      return (await import('./dev.js')).runDev({ reset: values.reset, rehydrate: values.rehydrate });
    case 'api':
    case 'worker':
      return runRole(command);
    case 'migrate':
      return withDb(operatorConfig(), async (db) => {
        if (values.status) {
          const [done, pending] = (await db.migrate.list(migrationConfig)) as [{ name: string }[], { file: string }[]];
          console.log(`applied: ${done.length}\npending: ${pending.map((p) => p.file).join(', ') || 'none'}`);
        } else if (values.rollback) {
          const [, names] = (await db.migrate.rollback(migrationConfig)) as [number, string[]];
          console.log(`rolled back: ${names.join(', ') || 'nothing'}`);
        } else {
          const applied = await migrateLatest(db);
          console.log(`applied: ${applied.join(', ') || 'nothing (up to date)'}`);
        }
      });
    case 'seed': {
      if (!values.json) throw new UsageError('svc seed prints JSON only: pass --json');
      const config = operatorConfig();
      const result = await withDb(config, async (db) => {
        await migrateLatest(db);
        return seedDemoAccount(db, { baseUrl: config.BASE_URL, dashboardUrl: config.DASHBOARD_URL });
      });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    case 'agent-key': {
      if (positionals[0] !== 'create' || !values.org) throw new UsageError('usage: svc agent-key create --org ORG_ID [--scopes a,b] --json');
      const { scopes, unknown } = values.scopes ? parseScopes(values.scopes) : { scopes: [...SCOPES], unknown: [] };
      if (unknown.length > 0) throw new UsageError(`unknown scopes: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
      if (scopes.length === 0) throw new UsageError('--scopes names no scope');
      const orgId = values.org;
      const key = await withDb(operatorConfig(), async (db) => {
        if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
        return createAgentKey(db, { orgId, name: values.name ?? 'CLI key', scopes });
      });
      process.stdout.write(values.json ? `${JSON.stringify({ agent_key: key.key })}\n` : `${key.key}\n`);
      return;
    }
    case 'events': {
      if (positionals[0] !== 'retry' || !values.app) throw new UsageError('usage: svc events retry --app APP_ID [--event EVENT_ID] [--json]');
      const { config, temporal: target } = withTemporalTarget(operatorConfig());
      const appId = values.app;
      const eventId = values.event;
      const temporal = createTemporalClient(config.TEMPORAL_ADDRESS ?? DEFAULT_TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, target.extras);
      const outcomes = await withDb(config, async (db) => {
        if (!(await findApp(db, appId))) throw new UsageError(`no app ${appId}`);
        return redriveFailedEvents({ db, temporal, taskQueue: config.TEMPORAL_TASK_QUEUE }, appId, eventId);
      }).finally(() => temporal.connection.close());
      if (eventId && outcomes.length === 0) throw new UsageError(`no failed event ${eventId} in app ${appId}`);
      const stillFailed = outcomes.filter((o) => o.status === 'failed').length;
      const report = { app_id: appId, retried: outcomes.filter((o) => o.retried).length, still_failed: stillFailed, events: outcomes };
      if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        console.log(outcomes.length === 0 ? `no failed events in app ${appId}` : outcomes.map((o) => `${o.event_id} ${o.event_type}: ${o.status}${o.error ? ` (${o.error})` : ''}`).join('\n'));
      }
      if (stillFailed > 0) process.exitCode = 1;
      return;
    }
    case 'payouts':
      return (await import('./payouts.js')).runPayoutsCommand(positionals, values, { operatorConfig, withDb, usage: (m) => new UsageError(m) });
    case 'workflows':
      return (await import('./workflows.js')).runWorkflowsCommand(positionals, values, { operatorConfig, withDb, usage: (m) => new UsageError(m) });
    case 'config':
      console.log(values.markdown ? configMarkdownTable() : JSON.stringify(loadConfig(), (k, v) => (SECRET_VARIABLES.has(k) && v ? '[set]' : v as unknown), 2));
      return;
    default:
      throw new UsageError(USAGE);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof WorkflowGenerationError) console.error(err.message);
  else console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
