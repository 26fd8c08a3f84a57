// `svc api` and `svc worker` each run alone against external PostgreSQL and Temporal, configured by environment
// only (TEMPORAL_ADDRESS, or a client profile file read by @temporalio/envconfig), and stop cleanly on SIGTERM.
import { Client } from '@temporalio/client';
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../runtime/ports.js';
import { PROJECT_ROOT, resolveBinary, TEMPORAL_CLI } from '../../runtime/temporal-binaries.js';
import { systemCheckWorkflow, systemCheckWorkflowId } from '../../workflows/system-check.js';
import { cliEnv, runSvc, SVC_BIN } from '../helpers/cli.js';
import { useHarness } from '../helpers/harness.js';

const h = useHarness(test, { worker: false, api: false });

function role(name: 'api' | 'worker', env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [SVC_BIN, name], { env, cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

test('svc worker serves the task queue and svc api answers readyz; SIGTERM stops both with exit 0', async (t) => {
  const port = await freePort();
  const taskQueue = `roles-${randomUUID()}`;
  const env = cliEnv({
    DATABASE_URL: h().database.url,
    TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: taskQueue,
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  const worker = role('worker', env);
  const api = role('api', env);
  try {
    const result = await h().temporal.workflow.execute(systemCheckWorkflow, {
      taskQueue,
      workflowId: systemCheckWorkflowId(randomUUID()),
      workflowExecutionTimeout: '60s',
    });
    t.true(result.database);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    t.is(status, 200);
    worker.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    t.is(await worker.exited, 0, worker.output());
    t.is(await api.exited, 0, api.output());
    t.regex(worker.output(), /"msg":"worker polling"/);
  } finally {
    worker.child.kill('SIGKILL');
    api.child.kill('SIGKILL');
  }
});

test('svc api and svc worker find Temporal through a client profile file (envconfig), namespace included', async (t) => {
  // A namespace of its own proves the profile's namespace is used, not the default one.
  const namespace = `profile-${randomUUID().slice(0, 8)}`;
  const cli = await resolveBinary(TEMPORAL_CLI);
  await promisify(execFile)(cli.path, [
    'operator',
    'namespace',
    'create',
    '--namespace',
    namespace,
    '--address',
    h().config.TEMPORAL_ADDRESS!,
  ]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-profile-'));
  const file = path.join(dir, 'temporal.toml');
  writeFileSync(
    file,
    `[profile.default]\naddress = ` +
      `"127.0.0.1:1"\n\n[profile.staging]\naddress = "${h().config.TEMPORAL_ADDRESS}"\nnamespace = "${namespace}"\n`,
  );
  const port = await freePort();
  const taskQueue = `profile-${randomUUID()}`;
  const env = cliEnv({
    DATABASE_URL: h().database.url,
    TEMPORAL_CONFIG_FILE: file,
    TEMPORAL_PROFILE: 'staging',
    TEMPORAL_TASK_QUEUE: taskQueue,
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  const worker = role('worker', env);
  const api = role('api', env);
  try {
    const client = new Client({ connection: h().temporal.connection, namespace });
    const result = await client.workflow.execute(systemCheckWorkflow, {
      taskQueue,
      workflowId: systemCheckWorkflowId(randomUUID()),
      workflowExecutionTimeout: '60s',
    });
    t.true(result.database);
    let ready: { temporal?: unknown } | undefined;
    for (let i = 0; i < 100 && !ready; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (res?.status === 200) ready = (await res.json()) as { temporal?: unknown };
      else await new Promise((r) => setTimeout(r, 200));
    }
    t.truthy(ready, api.output());
    t.regex(api.output(), /"msg":"temporal target"/);
    t.regex(api.output(), new RegExp(`"namespace":"${namespace}","from":"profile"`));
  } finally {
    worker.child.kill('SIGKILL');
    api.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Temporal profile that is not in the file stops svc api with a message naming TEMPORAL_PROFILE', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-profile-'));
  const file = path.join(dir, 'temporal.toml');
  writeFileSync(file, '[profile.default]\naddress = "127.0.0.1:1"\n');
  try {
    const missingProfile = await runSvc(
      ['api'],
      cliEnv({ DATABASE_URL: h().database.url, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'nope', PORT: String(await freePort()) }),
    );
    t.not(missingProfile.code, 0);
    t.regex(missingProfile.stderr, /TEMPORAL_PROFILE/);
    const missingFile = await runSvc(
      ['worker'],
      cliEnv({ DATABASE_URL: h().database.url, TEMPORAL_CONFIG_FILE: path.join(dir, 'absent.toml') }),
    );
    t.not(missingFile.code, 0);
    t.regex(missingFile.stderr, /TEMPORAL_CONFIG_FILE .*absent\.toml does not exist/);
    const printed = await runSvc(['config'], cliEnv({ TEMPORAL_API_KEY: 'tk-secret-value', STRIPE_SECRET_KEY: 'sk_test_secret' }));
    t.is(printed.code, 0);
    t.notRegex(printed.stdout, /tk-secret-value|sk_test_secret/);
    t.regex(printed.stdout, /"TEMPORAL_API_KEY": "\[set\]"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
