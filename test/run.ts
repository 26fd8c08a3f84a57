// `npm test`: provides what the suite needs once per run, then runs ava. PostgreSQL: DATABASE_URL, else embedded
// PostgreSQL in a temporary directory. Temporal: TEMPORAL_ADDRESS, else one dev server for the whole run. A
// migrated template database is created once; every test file clones it (test/helpers/database.ts).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase } from '../cli/database.js';
import { createDb, migrateLatest, withDatabase } from '../runtime/db.js';
import { ensurePinnedNode } from '../runtime/pinned-node.js';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { freePort } from '../runtime/ports.js';
import { resolveBinary, TEMPORAL_CLI, TEMPORAL_TEST_SERVER, PROJECT_ROOT } from '../runtime/temporal-binaries.js';
import { startTemporalDevServer } from '../runtime/temporal-dev-server.js';
import { dropDatabasesWithPrefix } from './helpers/database.js';

// Started by another node than the pinned one, the run goes on there; ava's workers inherit process.execPath.
await ensurePinnedNode();

const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const stops: (() => Promise<void>)[] = [];

async function provide(): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_TEST_RUN_ID: runId, NODE_ENV: 'test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' };

  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-test-pg-'));
    chmodSync(dir, 0o755); // as root the cluster runs as the postgres user, which must enter it
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort(), persistent: false });
    stops.push(async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    adminUrl = pg.url;
    console.log('test run: embedded PostgreSQL');
  }
  env.SVC_TEST_ADMIN_DATABASE_URL = adminUrl;

  if (!process.env.TEMPORAL_ADDRESS) {
    const binary = await resolveBinary(TEMPORAL_CLI);
    const server = await startTemporalDevServer({ binary: binary.path, port: await freePort() });
    stops.push(() => server.stop());
    env.TEMPORAL_ADDRESS = server.address;
    console.log(`test run: Temporal dev server at ${server.address} (${binary.source})`);
  }
  env.TEMPORAL_TEST_SERVER_PATH = (await resolveBinary(TEMPORAL_TEST_SERVER)).path;

  const template = `svc_t_${runId}_template`;
  const templateUrl = withDatabase(adminUrl, template);
  await ensureDatabase(templateUrl);
  const db = createDb(templateUrl, 1);
  await migrateLatest(db);
  await db.destroy();
  env.SVC_TEST_TEMPLATE_DB = template;
  stops.push(() => dropDatabasesWithPrefix(adminUrl, `svc_t_${runId}_`));
  return env;
}

async function main(): Promise<number> {
  let code = 1;
  try {
    const env = await provide();
    // `--script FILE` runs a TypeScript file with the same provisions instead of ava (test/replay/record-histories.ts).
    const args = process.argv.slice(2);
    const command =
      args[0] === '--script'
        ? ['--import', 'tsx', ...args.slice(1)]
        : [path.join(PROJECT_ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), ...args];
    code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, command, { stdio: 'inherit', env, cwd: PROJECT_ROOT });
      child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
      for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s));
    });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error('cleanup:', err));
  }
  return code;
}

process.exit(await main());
