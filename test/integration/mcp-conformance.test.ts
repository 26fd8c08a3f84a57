// The official conformance suite (@modelcontextprotocol/conformance, server mode) against /mcp with an agent key, for
// both protocol revisions /mcp serves: 0.1.16's active suite (2025-11-25) and, from the 0.2 line (installed under the
// alias @modelcontextprotocol/conformance-next), exactly the scenarios the 2026-07-28 revision requires. Every
// scenario that fails is expected and explained in api/mcp/CONFORMANCE.md (one table per revision); the test asserts
// that exactly those fail, so a new failure and a newly passing scenario are both noticed (then update the table).
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startBearerProxy } from '../helpers/bearer-proxy.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

const cli = (pkg: string) => path.join(path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), 'dist', 'index.js');

interface Run {
  revision: '2025-11-25' | '2026-07-28';
  pkg: string;
  args: string[];
  /** What the service must keep passing (CONFORMANCE.md "Passing"). */
  passing: string[];
}

const RUNS: Run[] = [
  {
    revision: '2025-11-25',
    pkg: '@modelcontextprotocol/conformance',
    args: [],
    passing: ['server-initialize', 'ping', 'tools-list', 'resources-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'],
  },
  {
    revision: '2026-07-28',
    pkg: '@modelcontextprotocol/conformance-next',
    args: ['--requirements', '2026-07-28'],
    passing: ['tools-list', 'resources-list', 'http-header-validation', 'sep-2164-resource-not-found', 'dns-rebinding-protection'],
  },
];

/** The scenarios listed as expected failures in CONFORMANCE.md under the revision's heading (first table column). */
function expectedFailures(revision: string): string[] {
  const doc = readFileSync(new URL('../../api/mcp/CONFORMANCE.md', import.meta.url), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith(revision)) ?? '';
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!).sort();
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function run(pkg: string, args: string[], url: string, outDir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli(pkg), 'server', '--url', url, '-o', outDir, ...args], {
      cwd: outDir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

for (const { revision, pkg, args, passing: mustPass } of RUNS) {
  test(`conformance ${revision}: exactly the expected scenarios fail`, async (t) => {
    // Both CLIs import fs.globSync (Node 22): on an older Node they cannot start, which is a failure, not a skip.
    if (Number(process.versions.node.split('.')[0]) < 22)
      return t.fail(`the conformance suite needs Node 22 or later (this is ${process.version}): run npm test on the project's Node 24`);
    const proxy = await startBearerProxy(h().baseUrl, seed.agent_key);
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-conformance-'));
    try {
      const { output } = await run(pkg, args, `${proxy.url}/mcp`, outDir);
      const failing: Record<string, string[]> = {};
      const passing: string[] = [];
      for (const dir of readdirSync(outDir)) {
        const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
        const checks = JSON.parse(readFileSync(path.join(outDir, dir, 'checks.json'), 'utf8')) as Check[];
        const failed = checks.filter((c) => c.status === 'FAILURE');
        if (failed.length > 0) failing[scenario] = failed.map((c) => `${c.id}: ${c.errorMessage ?? ''}`);
        else passing.push(scenario);
      }
      t.log(`passing (${passing.length}): ${passing.sort().join(', ')}`);
      t.log(`failing (${Object.keys(failing).length}): ${Object.keys(failing).sort().join(', ')}`);
      t.true(passing.length + Object.keys(failing).length > 5, output.slice(-3000));
      for (const scenario of mustPass) t.true(passing.includes(scenario), `${scenario} passes`);
      const expected = expectedFailures(revision);
      const unexpected = Object.keys(failing).filter((s) => !expected.includes(s));
      t.deepEqual(unexpected, [], `new failures: ${JSON.stringify(Object.fromEntries(unexpected.map((s) => [s, failing[s]])), null, 1)}`);
      const nowPassing = expected.filter((s) => !failing[s]);
      t.deepEqual(nowPassing, [], 'listed in CONFORMANCE.md as failing but passing now (or not run): update the list');
    } finally {
      await proxy.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  });
}
