// The harness's worker polls its own task queue on the run's dev server, and the time-skipping helper runs the
// real workflow bundle with the real activity factories.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../activities/index.js';
import { systemCheckWorkflow, systemCheckWorkflowId } from '../../workflows/system-check.js';
import { useHarness } from '../helpers/harness.js';
import { createTimeSkippingEnv, withTimeSkippingWorker } from '../helpers/time-skipping.js';

const h = useHarness(test, { api: false });

test('a workflow started on the file task queue runs its activities against the file database', async (t) => {
  const result = await h().temporal.workflow.execute(systemCheckWorkflow, {
    taskQueue: h().taskQueue,
    workflowId: systemCheckWorkflowId(randomUUID()),
    workflowExecutionTimeout: '30s',
  });
  const latest = await h().db('knex_migrations').orderBy('id', 'desc').first('name');
  t.is(result.latestMigration, latest.name);
  t.true(result.database);
});

test('the time-skipping environment runs the same workflow', async (t) => {
  const env = await createTimeSkippingEnv();
  try {
    const result = await withTimeSkippingWorker(
      env,
      createActivities({ db: h().db, platformFeePercent: 10, config: h().config }),
      (taskQueue) => env.client.workflow.execute(systemCheckWorkflow, { taskQueue, workflowId: systemCheckWorkflowId(randomUUID()) }),
    );
    t.truthy(result.latestMigration);
  } finally {
    await env.teardown();
  }
});
