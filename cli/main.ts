// `svc`: the one binary with every role and operator command (CONTRACT.md "Commands").
import { issueAgentKey } from '../actions/agent-keys.js';
import { findApp } from '../db/apps.js';
import { findOrganization } from '../db/organizations.js';
import { ConfigError, configMarkdownTable, loadConfig, type Config } from '../runtime/config.js';
import { parseScopes, SCOPES } from '../lib/scopes.js';
import { createDb, migrateLatest, migrationConfig } from '../runtime/db.js';
import { dataDirOf, readDevState } from '../runtime/dev-state.js';
import { createLogger } from '../runtime/logger.js';
import { WorkflowGenerationError } from '../runtime/workflow-generation.js';
import { createTemporalClient } from '../runtime/temporal-client.js';
import { withTemporalTarget } from '../runtime/temporal-target.js';
import { redriveFailedEvents } from '../actions/purchase-inbox.js';
import { DEFAULT_TEMPORAL_ADDRESS, startApi, startWorker } from './processes.js';
import { asksForHelp, parseCommandArgs, usageError, UsageError } from './args.js';
import { commandHelp, COMMANDS, overview } from './commands.js';
import { seedDemoAccount } from '../actions/seed.js';

/** Variables that may carry credentials: never printed. */
const SECRET_VARIABLES = new Set([
  'SVC_MASTER_KEY',
  'SMTP_URL',
  'DATABASE_URL',
  'REDIS_URL',
  'TEMPORAL_API_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

/**
 * Operator commands run next to a `svc dev` in another terminal: without DATABASE_URL they use that instance's
 * embedded database and Temporal.
 */
function operatorConfig(): Config {
  const base = loadConfig(process.env);
  if (base.DATABASE_URL) return base;
  const dev = readDevState(dataDirOf(base.SVC_DATA_DIR));
  if (!dev)
    throw new ConfigError(
      ['DATABASE_URL'],
      'DATABASE_URL is not set and no `svc dev` is running for this data directory (start one with `npm start`, or set DATABASE_URL).',
    );
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
  logger.info(
    {
      temporal: temporal.address,
      namespace: config.TEMPORAL_NAMESPACE,
      from: target.source,
      tls: Boolean(target.extras.tls),
      apiKey: Boolean(target.extras.apiKey),
    },
    'temporal target',
  );
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

/** `svc help [COMMAND]`, `svc COMMAND --help`: the help on stdout; an unknown command is a usage error. */
function help(command: string | undefined): void {
  if (command !== undefined && !COMMANDS[command])
    throw new UsageError(`svc help: unknown command '${command}' (usage: svc help [COMMAND]; svc help lists them)`);
  console.log(command === undefined ? overview() : commandHelp(command));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('svc: missing a command (usage: svc <command> [options]; svc help lists them)');
  if (command === 'help' || command === '--help' || command === '-h') {
    if (rest.length > 1) throw new UsageError(`svc help: unexpected argument '${rest[1]}' (usage: svc help [COMMAND])`);
    return help(rest[0]);
  }
  if (!COMMANDS[command]) throw new UsageError(`svc: unknown command '${command}' (svc help lists them)`);
  if (asksForHelp(rest)) return help(command);
  const parsed = parseCommandArgs(command, rest);
  const values = parsed.values as {
    json?: boolean;
    status?: boolean;
    rollback?: boolean;
    markdown?: boolean;
    org?: string;
    scopes?: string;
    name?: string;
    app?: string;
    event?: string;
    to?: string;
    'run-id'?: string;
    'dry-run'?: boolean;
    reset?: boolean;
    rehydrate?: boolean;
  };
  const positionals = parsed.positionals;
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
        return seedDemoAccount({ db }, { baseUrl: config.BASE_URL, dashboardUrl: config.DASHBOARD_URL });
      });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    case 'agent-key': {
      const { scopes, unknown } = values.scopes ? parseScopes(values.scopes) : { scopes: [...SCOPES], unknown: [] };
      if (unknown.length > 0) throw usageError(command, `unknown scopes: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
      if (scopes.length === 0) throw usageError(command, '--scopes names no scope');
      const orgId = values.org!;
      const key = await withDb(operatorConfig(), async (db) => {
        if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
        return issueAgentKey({ db }, { orgId, name: values.name ?? 'CLI key', scopes });
      });
      process.stdout.write(values.json ? `${JSON.stringify({ agent_key: key.key })}\n` : `${key.key}\n`);
      return;
    }
    case 'events': {
      const { config, temporal: target } = withTemporalTarget(operatorConfig());
      const appId = values.app!;
      const eventId = values.event;
      const temporal = createTemporalClient(config.TEMPORAL_ADDRESS ?? DEFAULT_TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, target.extras);
      const outcomes = await withDb(config, async (db) => {
        if (!(await findApp(db, appId))) throw new UsageError(`no app ${appId}`);
        return redriveFailedEvents({ db, temporal, taskQueue: config.TEMPORAL_TASK_QUEUE }, { appId, eventId });
      }).finally(() => temporal.connection.close());
      if (eventId && outcomes.length === 0) throw new UsageError(`no failed event ${eventId} in app ${appId}`);
      const stillFailed = outcomes.filter((o) => o.status === 'failed').length;
      const report = { app_id: appId, retried: outcomes.filter((o) => o.retried).length, still_failed: stillFailed, events: outcomes };
      if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        console.log(
          outcomes.length === 0
            ? `no failed events in app ${appId}`
            : outcomes.map((o) => `${o.event_id} ${o.event_type}: ${o.status}${o.error ? ` (${o.error})` : ''}`).join('\n'),
        );
      }
      if (stillFailed > 0) process.exitCode = 1;
      return;
    }
    case 'payouts':
      return (await import('./payouts.js')).runPayoutsCommand(positionals, values, {
        operatorConfig,
        withDb,
        usage: (m) => new UsageError(m),
      });
    case 'workflows':
      return (await import('./workflows.js')).runWorkflowsCommand(positionals, values, {
        operatorConfig,
        withDb,
        usage: (m) => new UsageError(m),
      });
    case 'mail':
      return (await import('./mail.js')).runMailCommand(values, { operatorConfig, withDb });
    case 'config':
      console.log(
        values.markdown
          ? configMarkdownTable()
          : JSON.stringify(loadConfig(), (k, v) => (SECRET_VARIABLES.has(k) && v ? '[set]' : (v as unknown)), 2),
      );
      return;
    default:
      throw new Error(`svc: the command table lists '${command}' but main has no runner for it`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof WorkflowGenerationError) console.error(err.message);
  else console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
