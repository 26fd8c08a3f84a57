// Child processes that `svc dev` and the test runner own. They run in their own process group so a terminal's
// Ctrl-C reaches only the parent, which then stops them in order (worker drains before the database goes away).
// A pid file lets the next start clean up after a parent that was killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface ManagedChild {
  pid: number;
  exited: Promise<number | null>;
  stop(timeoutMs?: number): Promise<void>;
}

export interface SpawnOptions {
  logFile?: string;
  pidFile?: string;
  env?: NodeJS.ProcessEnv;
  ipc?: boolean;
}

export function spawnManaged(command: string, args: string[], opts: SpawnOptions = {}): ManagedChild & { child: ChildProcess } {
  const out = opts.logFile ? openSync(opts.logFile, 'a') : 'ignore';
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', out, out, ...(opts.ipc ? ['ipc' as const] : [])],
    env: opts.env ?? process.env,
  });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  if (opts.pidFile) writeFileSync(opts.pidFile, String(pid));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      if (opts.pidFile) rmSync(opts.pidFile, { force: true });
      resolve(code);
    });
  });
  return { pid, child, exited, stop: (timeoutMs = 15_000) => stopGroup(pid, exited, timeoutMs) };
}

async function stopGroup(pid: number, exited: Promise<unknown>, timeoutMs: number): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    signalGroup(pid, 'SIGKILL');
    await exited;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a process left behind by an earlier run, if the pid file names a live process running `marker`. */
export async function stopStale(pidFile: string, marker: string): Promise<boolean> {
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return false;
  }
  if (!cmdline.includes(marker)) return false;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    process.kill(pid, 'SIGTERM');
  }
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return true;
}
