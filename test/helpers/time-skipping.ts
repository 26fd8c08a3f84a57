// Time-skipping environment for workflow tests: the resolved `temporal-test-server`, a worker built from the real
// workflow bundle and the real activity factories (fakes only at the outer edge, injected by the test).
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../runtime/logger.js';
import { installRuntime, workflowBundle } from '../../worker/worker.js';
import { requireTestEnv } from './env.js';

export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  installRuntime(createLogger('silent'), { handleSignals: false });
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: requireTestEnv().testServerPath } },
  });
}

/** Runs `fn` while a worker with the given activities polls a fresh task queue of `env`. */
export async function withTimeSkippingWorker<T>(
  env: TestWorkflowEnvironment,
  activities: object,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `ts-${randomBytes(6).toString('hex')}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
  });
  return worker.runUntil(fn(taskQueue));
}
