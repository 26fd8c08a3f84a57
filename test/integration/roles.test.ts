// `svc api` and `svc worker` each run alone against external PostgreSQL and Temporal, configured by environment
// only, and stop cleanly on SIGTERM.
import test from 'ava';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { freePort } from '../../runtime/ports.js';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';
import { systemCheckWorkflow, systemCheckWorkflowId } from '../../workflows/system-check.js';
import { cliEnv, SVC_BIN } from '../helpers/cli.js';
import { useHarness } from '../helpers/harness.js';

const h = useHarness(test, { worker: false, api: false });

function role(name: 'api' | 'worker', env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [SVC_BIN, name], { env, cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

test('svc worker serves the task queue and svc api answers readyz; SIGTERM stops both with exit 0', async (t) => {
  const port = await freePort();
  const taskQueue = `roles-${randomUUID()}`;
  const env = cliEnv({ DATABASE_URL: h().database.url, TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE: taskQueue, PORT: String(port), LOG_LEVEL: 'info' });
  const worker = role('worker', env);
  const api = role('api', env);
  try {
    const result = await h().temporal.workflow.execute(systemCheckWorkflow, {
      taskQueue, workflowId: systemCheckWorkflowId(randomUUID()), workflowExecutionTimeout: '60s',
    });
    t.true(result.database);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
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
