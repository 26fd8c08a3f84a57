// The production shape for fault drills: `svc api` and `svc worker` as separate child processes (started, killed
// with any signal, restarted on the same port), and private PostgreSQL and Temporal servers a test may stop and
// start again on their own data (the run's shared servers are never touched).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase } from '../../cli/database.js';
import { createDb, migrateLatest, withDatabase } from '../../runtime/db.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../../runtime/embedded-postgres.js';
import { freePort } from '../../runtime/ports.js';
import { PROJECT_ROOT, resolveBinary, TEMPORAL_CLI } from '../../runtime/temporal-binaries.js';
import { startTemporalDevServer, type RunningDevServer } from '../../runtime/temporal-dev-server.js';
import { cliEnv, SVC_BIN } from './cli.js';

export type Role = 'api' | 'worker';

export interface SvcProcess {
  role: Role;
  /** The API's base URL, or the worker's metrics origin (`/metrics`, `/healthz`). */
  url: string;
  logFile: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Sends the signal and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** The last lines of its log, for failure messages. */
  logTail(lines?: number): string;
}

const logDir = mkdtempSync(path.join(os.tmpdir(), 'svc-drill-logs-'));

// Whatever this test process started dies with it, also when ava stops a test file that overran its timeout (the
// test's own clean-up never runs then): svc processes, and the private Temporal servers (their own process groups).
const children = new Set<ChildProcess>();
const processGroups = new Set<number>();
function killEverything(): void {
  for (const child of children) child.kill('SIGKILL');
  for (const pid of processGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
}
process.once('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killEverything();
    process.exit(1);
  });
}

/**
 * Starts `node bin/svc.js api|worker` with `vars` (the machine's basics only otherwise) on `port` (a free one when
 * not given) and waits until it answers: the API's /healthz, the worker's metrics /healthz.
 */
export async function startSvc(role: Role, vars: Record<string, string>, port?: number): Promise<SvcProcess> {
  const p = port ?? (await freePort());
  const logFile = path.join(logDir, `${role}-${p}-${Date.now()}.log`);
  const out = openSync(logFile, 'a');
  const env = cliEnv({
    LOG_LEVEL: 'warn',
    SVC_MASTER_KEY: randomBytes(32).toString('base64'),
    ...vars,
    ...(role === 'api' ? { PORT: String(p) } : { WORKER_METRICS_PORT: String(p) }),
  });
  const child = spawn(process.execPath, [SVC_BIN, role], { cwd: PROJECT_ROOT, env, stdio: ['ignore', out, out] });
  closeSync(out);
  children.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const url = `http://127.0.0.1:${p}`;
  const proc: SvcProcess = {
    role,
    url,
    logFile,
    child,
    exited,
    kill: async (signal = 'SIGTERM') => {
      if (!dead) child.kill(signal);
      await exited;
    },
    logTail: (lines = 30) => {
      try {
        return readFileSync(logFile, 'utf8').trim().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (dead) throw new Error(`svc ${role} exited during start-up:\n${proc.logTail()}`);
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return proc;
    if (Date.now() > deadline) {
      await proc.kill('SIGKILL');
      throw new Error(`svc ${role} did not answer within 60 s:\n${proc.logTail()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A PostgreSQL server of the test's own (embedded, persistent data), with a migrated database `svc`. */
export interface PrivatePostgres {
  url: string;
  restart(pauseMs?: number): Promise<void>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-drill-pg-'));
  chmodSync(dir, 0o755); // as root the cluster runs as the postgres user, which must enter it
  const port = await freePort();
  const options = { dataDir: path.join(dir, 'data'), port, persistent: true, logFile: path.join(dir, 'postgres.log') };
  let running: RunningPostgres | undefined = await startEmbeddedPostgres(options);
  const url = withDatabase(running.url, 'svc');
  await ensureDatabase(url);
  const db = createDb(url, 1);
  await migrateLatest(db);
  await db.destroy();
  const stopServer = async () => {
    await running?.stop();
    running = undefined;
  };
  const startServer = async () => {
    running ??= await startEmbeddedPostgres(options);
  };
  return {
    url,
    stopServer,
    startServer,
    restart: async (pauseMs = 0) => {
      await stopServer();
      await new Promise((r) => setTimeout(r, pauseMs));
      await startServer();
    },
    destroy: async () => {
      await stopServer().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Temporal dev server of the test's own, on its own SQLite file: stopped and started again on that file. */
export interface PrivateTemporal {
  address: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateTemporal(): Promise<PrivateTemporal> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-drill-temporal-'));
  const binary = (await resolveBinary(TEMPORAL_CLI)).path;
  const port = await freePort();
  const options = { binary, port, dbFilename: path.join(dir, 'temporal.db'), logFile: path.join(dir, 'temporal.log') };
  const begin = async () => {
    const started = await startTemporalDevServer(options);
    processGroups.add(started.pid);
    return started;
  };
  let server: RunningDevServer | undefined = await begin();
  const stop = async () => {
    await server?.stop();
    if (server) processGroups.delete(server.pid);
    server = undefined;
  };
  return {
    address: `127.0.0.1:${port}`,
    stop,
    start: async () => {
      server ??= await begin();
    },
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 200 ms until it holds. */
export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
