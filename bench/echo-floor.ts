// The orchestration floor: update-with-start on entity workflows that do nothing, at the same concurrency as the
// pipeline. What the Temporal server and SDK cost on this machine before any of our work (no HTTP, no DB). Its
// variants carry an event-sized payload and await one local activity doing nothing: the orchestration every
// conversion event needs by design, apart from our work.
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { echoActivityWorkflow, echoUpdate, echoWorkflow, type EchoActivities } from './echo-workflow.js';
import { pct, type Run } from './load.js';
import { cpuPerEvent, sampleCpu } from './cpu-split.js';

const echoActivities: EchoActivities = { echoLength: async (x) => String(x.length) };

type Send = (workflow: string, updateId: string) => Promise<number>;

/** What each update carries (`payload`) and whether it awaits a local activity doing nothing. */
export interface EchoVariant {
  name: string;
  payload: string;
  localActivity: boolean;
}

export const PLAIN_FLOOR: EchoVariant = {
  name: 'floor: update-with-start to a workflow doing nothing (no HTTP, no DB)',
  payload: 'x',
  localActivity: false,
};

/** Runs `fn` with an echo worker on a task queue of its own; `send` answers one update's latency in ms. */
async function withEchoWorker<T>(address: string, fn: (send: Send) => Promise<T>, variant: EchoVariant = PLAIN_FLOOR): Promise<T> {
  const connection = await NativeConnection.connect({ address });
  const taskQueue = `echo-${randomBytes(3).toString('hex')}`;
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowsPath: fileURLToPath(new URL('./echo-workflow.ts', import.meta.url)),
    ...(variant.localActivity ? { activities: echoActivities } : {}),
  });
  const client = new Client({ connection: await Connection.connect({ address }) });
  const workflow = variant.localActivity ? echoActivityWorkflow : echoWorkflow;
  const send: Send = async (id, updateId) => {
    const t0 = performance.now();
    await client.workflow.executeUpdateWithStart(echoUpdate, {
      args: [variant.payload],
      updateId,
      startWorkflowOperation: new WithStartWorkflowOperation(workflow, {
        workflowId: `echo-${taskQueue}-${id}`,
        taskQueue,
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    });
    return performance.now() - t0;
  };
  try {
    return await worker.runUntil(fn(send));
  } finally {
    await client.connection.close();
    await connection.close();
  }
}

/** `temporalPid`: the dev server's process, for the CPU split (this process hosts the worker and the client). */
export async function echoFloor(
  address: string,
  events: number,
  workflows: number,
  senders: number,
  temporalPid?: number,
  variant: EchoVariant = PLAIN_FLOOR,
): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const groups = { 'worker + client': () => [process.pid], Temporal: () => (temporalPid ? [temporalPid] : []) };
  const cpuBefore = sampleCpu(groups);
  const started = performance.now();
  await withEchoWorker(
    address,
    (send) =>
      Promise.all(
        Array.from({ length: senders }, async () => {
          for (let i = next++; i < events; i = next++) latencies.push(await send(String(i % workflows), `u${i}`));
        }),
      ),
    variant,
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuPerEvent(cpuBefore, sampleCpu(groups), events);
  latencies.sort((a, b) => a - b);
  return {
    name: variant.name,
    events,
    seconds,
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    ledgerOk: true,
    detail: 'no money moved',
    cpu,
  };
}

/**
 * The floor one update at a time (nothing else in flight): p50 of an update that starts its workflow and of one to
 * a workflow already running. What a single event cannot go below on this machine.
 */
export async function echoIdle(address: string, updates = 40): Promise<{ starting: number; running: number }> {
  return withEchoWorker(address, async (send) => {
    for (let i = 0; i < 10; i++) await send(`warm-${i}`, 'w');
    const starting: number[] = [];
    const running: number[] = [];
    for (let i = 0; i < updates; i++) starting.push(await send(`idle-${i}`, 'a'));
    for (let i = 0; i < updates; i++) running.push(await send(`idle-${i}`, 'b'));
    return {
      starting: pct(
        starting.sort((a, b) => a - b),
        0.5,
      ),
      running: pct(
        running.sort((a, b) => a - b),
        0.5,
      ),
    };
  });
}
