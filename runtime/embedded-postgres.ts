// Embedded PostgreSQL for `svc dev` and for test runs on machines without a PostgreSQL server.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnManaged } from './managed-child.js';
import { assertPortFree } from './ports.js';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  persistent: boolean;
  logFile?: string;
  portVariable?: string;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

const HOST_SCRIPT = fileURLToPath(new URL('./embedded-postgres-host.ts', import.meta.url));

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  assertTraversableByPostgresUser(dataDir);
  const credentials = readOrCreateCredentials(`${dataDir}.credentials.json`);
  // A live cluster from a killed earlier run keeps the port: the host stops it first, so only check foreign use.
  if (!existsSync(path.join(dataDir, 'postmaster.pid'))) {
    await assertPortFree(opts.port, opts.portVariable ?? 'EMBEDDED_PG_PORT', 'Embedded PostgreSQL');
  }
  const child = spawnManaged(process.execPath, ['--import', 'tsx', HOST_SCRIPT], {
    ipc: true,
    logFile: opts.logFile,
    env: { ...process.env, SVC_EMBEDDED_PG: JSON.stringify({ dataDir, port: opts.port, persistent: opts.persistent, ...credentials }) },
  });
  const ready = await new Promise<{ ready?: boolean; error?: string }>((resolve) => {
    child.child.once('message', (m) => resolve(m as { ready?: boolean; error?: string }));
    void child.exited.then((code) => resolve({ error: `embedded PostgreSQL exited with code ${code}` }));
  });
  if (!ready.ready) {
    await child.stop();
    throw new Error(
      `Embedded PostgreSQL failed to start: ${ready.error ?? 'unknown error'}${opts.logFile ? ` (log: ${opts.logFile})` : ''}`,
    );
  }
  const url = `postgres://${credentials.user}:${credentials.password}@127.0.0.1:${opts.port}/postgres`;
  return { url, stop: () => child.stop(20_000) };
}

function readOrCreateCredentials(file: string): { user: string; password: string } {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { user: string; password: string };
  const credentials = { user: 'postgres', password: randomBytes(18).toString('base64url') };
  writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/** As root the cluster runs as the `postgres` user, which must be able to reach the data directory. */
function assertTraversableByPostgresUser(dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!existsSync(dir)) continue;
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `Embedded PostgreSQL runs as the 'postgres' user, which cannot enter ${dir}. ` +
          'Set SVC_DATA_DIR to a directory under a world-traversable path (for example /var/tmp/svc), or set DATABASE_URL.',
      );
    }
  }
  accessSync(path.dirname(dataDir), constants.W_OK);
}
