// Starts `temporal server start-dev` for `svc dev` (persistent SQLite file, Web UI) and for the test runner
// (in-memory, no UI), with our search attributes registered, and waits until its frontend answers.
import { Connection } from '@temporalio/client';
import { devServerSearchAttributeArgs } from '../schema/search-attributes.js';
import { spawnManaged, stopStale } from './managed-child.js';
import { assertPortFree } from './ports.js';

export interface DevServerOptions {
  binary: string;
  port: number;
  uiPort?: number;
  dbFilename?: string;
  logFile?: string;
  pidFile?: string;
  namespace?: string;
  /** SQLite pragmas for the file store (`PRAGMA=VALUE`), e.g. journal_mode=WAL. */
  sqlitePragmas?: string[];
}

export interface RunningDevServer {
  address: string;
  uiUrl: string | undefined;
  /** The server's process (also its process group). */
  pid: number;
  stop(): Promise<void>;
}

export async function startTemporalDevServer(opts: DevServerOptions): Promise<RunningDevServer> {
  if (opts.pidFile) await stopStale(opts.pidFile, 'start-dev');
  await assertPortFree(opts.port, 'TEMPORAL_PORT', 'The Temporal dev server');
  if (opts.uiPort) await assertPortFree(opts.uiPort, 'TEMPORAL_UI_PORT', 'The Temporal Web UI');
  const namespace = opts.namespace ?? 'default';
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--namespace',
    namespace,
    '--log-level',
    'warn',
    ...devServerSearchAttributeArgs(),
    ...(opts.dbFilename ? ['--db-filename', opts.dbFilename, ...(opts.sqlitePragmas ?? []).flatMap((p) => ['--sqlite-pragma', p])] : []),
    ...(opts.uiPort ? ['--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1', '--ui-disable-news-fetch'] : ['--headless']),
  ];
  const child = spawnManaged(opts.binary, args, { logFile: opts.logFile, pidFile: opts.pidFile });
  const address = `127.0.0.1:${opts.port}`;
  try {
    await waitForFrontend(address, namespace, child.exited);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return { address, uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined, pid: child.pid, stop: () => child.stop() };
}

async function waitForFrontend(address: string, namespace: string, exited: Promise<unknown>, timeoutMs = 60_000): Promise<void> {
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline && !dead) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(
    `The Temporal dev server did not become ready at ${address}${dead ? ' (it exited; see its log)' : ''}: ${String(lastError)}`,
  );
}
