// What a benchmark needs around it: a database (DATABASE_URL or embedded PostgreSQL), migrated, and servers in
// child processes so the load generator does not share an event loop with them.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase } from '../cli/database.js';
import { createDb, migrateLatest, withDatabase } from '../runtime/db.js';
import { startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { ensurePinnedNode } from '../runtime/pinned-node.js';
import { freePort } from '../runtime/ports.js';
import { PROJECT_ROOT, resolveBinary, TEMPORAL_CLI } from '../runtime/temporal-binaries.js';
import { startTemporalDevServer, type DevServerOptions } from '../runtime/temporal-dev-server.js';

// Every bench runs on the pinned Node unless SVC_ANY_NODE=1 (comparing Node versions: docs/runtime.md).
await ensurePinnedNode();

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function benchDatabase(name: string): Promise<BenchDatabase> {
  let adminUrl = process.env.DATABASE_URL;
  let stopPg = async () => undefined;
  if (!adminUrl) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pg-'));
    chmodSync(dir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort(), persistent: false });
    adminUrl = pg.url;
    stopPg = async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const url = withDatabase(adminUrl, `${name}_${Date.now().toString(36)}`);
  await ensureDatabase(url);
  const db = createDb(url, 1);
  await migrateLatest(db);
  await db.destroy();
  return {
    url,
    stop: async () => {
      const admin = createDb(withDatabase(adminUrl, 'postgres'), 1);
      await admin.raw(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
      await admin.destroy();
      await stopPg();
    },
  };
}

export interface BenchServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** BENCH_CPU_PROFILE_DIR: every process started here writes V8 CPU profiles (one per thread) there when it exits. */
const profileFlags = (): string[] => {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
};

/** Starts `node --import tsx <script> [args]` and waits until `url/readyPath` answers (null: no HTTP to wait for). */
export async function startServer(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyPath: string | null = '/healthz',
): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...profileFlags(), '--import', 'tsx', path.join(PROJECT_ROOT, script), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; readyPath !== null && i < 300; i++) {
    const ok = await fetch(`${url}${readyPath}`).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** `pid`: the dev server's process (none for an external TEMPORAL_ADDRESS). */
export interface BenchTemporal {
  address: string;
  pid?: number;
  stop(): Promise<void>;
}

/** TEMPORAL_ADDRESS when set, else a Temporal dev server of the bench's own (in memory unless `dev` says otherwise). */
export async function benchTemporal(
  dev: Omit<DevServerOptions, 'binary' | 'port'> = {},
  external = process.env.TEMPORAL_ADDRESS,
): Promise<BenchTemporal> {
  if (external) return { address: external, stop: async () => undefined };
  const server = await startTemporalDevServer({ binary: (await resolveBinary(TEMPORAL_CLI)).path, port: await freePort(), ...dev });
  return { address: server.address, pid: server.pid, stop: () => server.stop() };
}
