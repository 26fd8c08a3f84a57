// The orchestration floor: update-with-start on entity workflows that do nothing, at the same concurrency as the
// pipeline. What the Temporal server and SDK cost on this machine before any of our work (no HTTP, no DB).
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { echoUpdate, echoWorkflow } from './echo-workflow.js';
import { pct, type Run } from './load.js';
import { cpuPerEvent, sampleCpu } from './cpu-split.js';

/** `temporalPid`: the dev server's process, for the CPU split (this process hosts the worker and the client). */
export async function echoFloor(address: string, events: number, workflows: number, senders: number, temporalPid?: number): Promise<Run> {
  const connection = await NativeConnection.connect({ address });
  const taskQueue = `echo-${randomBytes(3).toString('hex')}`;
  const worker = await Worker.create({ connection, taskQueue, workflowsPath: fileURLToPath(new URL('./echo-workflow.ts', import.meta.url)) });
  const client = new Client({ connection: await Connection.connect({ address }) });
  const latencies: number[] = [];
  let next = 0;
  const groups = { 'worker + client': () => [process.pid], Temporal: () => (temporalPid ? [temporalPid] : []) };
  const cpuBefore = sampleCpu(groups);
  const started = performance.now();
  await worker.runUntil(Promise.all(Array.from({ length: senders }, async () => {
    for (let i = next++; i < events; i = next++) {
      const t0 = performance.now();
      await client.workflow.executeUpdateWithStart(echoUpdate, {
        args: ['x'], updateId: `u${i}`,
        startWorkflowOperation: new WithStartWorkflowOperation(echoWorkflow, { workflowId: `echo-${taskQueue}-${i % workflows}`, taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' }),
      });
      latencies.push(performance.now() - t0);
    }
  })));
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuPerEvent(cpuBefore, sampleCpu(groups), events);
  await client.connection.close();
  await connection.close();
  latencies.sort((a, b) => a - b);
  return { name: 'floor: update-with-start to a workflow doing nothing (no HTTP, no DB)', events, seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), ledgerOk: true, detail: 'no money moved', cpu };
}
