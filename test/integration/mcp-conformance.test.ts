// The official conformance suite (@modelcontextprotocol/conformance, server mode) against /mcp with an agent key.
// Every scenario that fails is expected and explained in api/mcp/CONFORMANCE.md; the test asserts that exactly those
// fail, so a new failure and a newly passing scenario are both noticed (then update CONFORMANCE.md).
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startBearerProxy } from '../helpers/bearer-proxy.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

const CLI = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');

/** The scenarios listed as expected failures in CONFORMANCE.md (its table's first column). */
function expectedFailures(): string[] {
  const doc = readFileSync(new URL('../../api/mcp/CONFORMANCE.md', import.meta.url), 'utf8');
  return [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!).sort();
}

/** What the service must keep passing (CONFORMANCE.md "Passing"). */
const PASSING = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

interface Check { id: string; status: string; errorMessage?: string }

function run(url: string, outDir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'server', '--url', url, '-o', outDir], { cwd: outDir, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

test('conformance server suite: exactly the expected scenarios fail', async (t) => {
  const proxy = await startBearerProxy(h().baseUrl, seed.agent_key);
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-conformance-'));
  try {
    const { output } = await run(`${proxy.url}/mcp`, outDir);
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
    t.true(passing.length + Object.keys(failing).length > 20, output.slice(-2000));
    for (const scenario of PASSING) t.true(passing.includes(scenario), `${scenario} passes`);
    const unexpected = Object.keys(failing).filter((s) => !expectedFailures().includes(s));
    t.deepEqual(unexpected, [], `new failures: ${JSON.stringify(Object.fromEntries(unexpected.map((s) => [s, failing[s]])), null, 1)}`);
    const nowPassing = expectedFailures().filter((s) => !failing[s]);
    t.deepEqual(nowPassing, [], 'listed in CONFORMANCE.md as failing but passing now (or not run): update the list');
  } finally {
    await proxy.close();
    rmSync(outDir, { recursive: true, force: true });
  }
});
