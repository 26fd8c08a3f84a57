// Runs the real `svc` binary as a child process, the way operators and outside test suites call it.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';

export const SVC_BIN = path.join(PROJECT_ROOT, 'bin', 'svc.js');

/**
 * The machine's own `node` (the first on PATH outside any node_modules, where npm links the pinned one), as a newcomer
 * starts `svc` with; the running binary when PATH has no other.
 */
export function machineNode(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir || dir.split(path.sep).includes('node_modules')) continue;
    const file = path.join(dir, 'node');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* not here */
    }
  }
  return process.execPath;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child `svc`: the machine's basics plus `vars`, none of the test runner's own variables. */
export function cliEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR, LANG } = process.env;
  return { PATH, HOME, TMPDIR, LANG, LOG_LEVEL: 'silent', ...vars };
}

export function runSvc(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], { env, cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} timed out\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
