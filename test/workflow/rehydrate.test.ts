// Workflow generations through the real `svc` binary: a worker refuses a database whose conversion runs an older
// generation recorded, naming the way out; `svc workflows rehydrate` terminates the open runs (here opened by the
// pre-release workflow code, test/replay/generations/pre-r1-conversion.ts) and starts each again from PostgreSQL
// (its held release included), after which a renewal, a redelivery and the release are exact. A holding-period day
// lasts one second here.
import { bundleWorkflowCode } from '@temporalio/worker';
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createWorker } from '../../worker/worker.js';
import { findWorkflowGeneration, recordWorkflowGeneration } from '../../db/workflow-generations.js';
import { CONVERSION_WORKFLOW_GENERATION, conversionWorkflowId } from '../../workflows/conversion-messages.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { ingest } from '../helpers/conversion-client.js';
import { assertExactBooks, commissionsOf, conversionByKey } from '../helpers/conversions.js';
import { requireTestEnv } from '../helpers/env.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp } from '../helpers/seed.js';
import { subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const DAY_MS = 1000;
const PRE_R1_WORKFLOW = fileURLToPath(new URL('../replay/generations/pre-r1-conversion.ts', import.meta.url));
const quiet = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const h = useHarness(test, { api: false, env: { HOLDING_PERIOD_DAY_MS: String(DAY_MS) } });
const svcEnv = (taskQueue = h().taskQueue) =>
  cliEnv({
    DATABASE_URL: h().database.url,
    TEMPORAL_ADDRESS: requireTestEnv().temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    HOLDING_PERIOD_DAY_MS: String(DAY_MS),
    WORKER_METRICS_PORT: '0',
  });

test.serial(
  'svc worker refuses a database of an older workflow generation, naming svc workflows rehydrate and svc dev --reset',
  async (t) => {
    await recordWorkflowGeneration(h().db, 'conversion', CONVERSION_WORKFLOW_GENERATION - 1);
    const refused = await runSvc(['worker'], svcEnv());
    t.is(refused.code, 1, refused.stdout);
    t.regex(refused.stderr, /older generation/);
    t.regex(refused.stderr, /svc workflows rehydrate/);
    t.regex(refused.stderr, /svc dev --reset/);
  },
);

test.serial(
  'svc workflows rehydrate restarts open runs of the pre-release generation ' +
    'from PostgreSQL; a renewal, a redelivery and the held release are then exact',
  async (t) => {
    const { temporal, db } = h();
    const taskQueue = `pre-r1-${randomBytes(4).toString('hex')}`;
    const acct = await seedApp(db);
    await db('campaigns').where('id', acct.campaign_id).update({ holding_period_days: 4 });
    const sub = subscription('rehydrated', acct.creator_code);
    const first = sub('initial_purchase');
    await db('workflow_generations').del();

    // The run is opened by the workflow code main ran before r1 (patch markers in its history), then that worker goes.
    const old = await createWorker({
      address: requireTestEnv().temporalAddress,
      namespace: h().config.TEMPORAL_NAMESPACE,
      taskQueue,
      db,
      config: h().config,
      workflowBundle: await bundleWorkflowCode({ workflowsPath: PRE_R1_WORKFLOW, logger: quiet }),
    });
    const firstResult = await old.worker.runUntil(() => ingest(temporal, taskQueue, acct.app_id, first));
    await old.connection.close();
    t.falsy(firstResult.error);
    const handle = temporal.workflow.getHandle(conversionWorkflowId(acct.app_id, first.event.original_transaction_id));
    const oldRun = await handle.describe();
    t.true(
      (await handle.fetchHistory()).events!.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch'),
      'an open run of the old generation',
    );
    t.is(await findWorkflowGeneration(db, 'conversion'), undefined, 'a database from before generations');
    const refused = await runSvc(['worker'], svcEnv(taskQueue));
    t.is(refused.code, 1);
    t.regex(refused.stderr, /older generation \(pre-release;/);

    const res = await runSvc(['workflows', 'rehydrate', '--json'], svcEnv(taskQueue));
    t.is(res.code, 0, res.stderr);
    t.deepEqual(JSON.parse(res.stdout), { terminated: 1, restarted: 1, generation: CONVERSION_WORKFLOW_GENERATION });
    t.is(await findWorkflowGeneration(db, 'conversion'), CONVERSION_WORKFLOW_GENERATION);
    t.is((await temporal.workflow.getHandle(handle.workflowId, oldRun.runId).describe()).status.name, 'TERMINATED');
    const fresh = await handle.describe();
    t.not(fresh.runId, oldRun.runId);
    t.is(fresh.status.name, 'RUNNING');
    const attrs = Object.fromEntries(fresh.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
    t.like(attrs, { AppId: acct.app_id, AppUserId: 'rehydrated', ConversionStatus: 'active', ReferralCode: acct.creator_code });

    // Today's worker takes the restarted run: the database's unique keys answer the redelivery the new run cannot
    // remember; the renewal earns once; both commissions are released by the new run's timer after four (short) days.
    const current = await createWorker({
      address: requireTestEnv().temporalAddress,
      namespace: h().config.TEMPORAL_NAMESPACE,
      taskQueue,
      db,
      config: h().config,
    });
    await current.worker.runUntil(async () => {
      const again = await ingest(temporal, taskQueue, acct.app_id, first);
      t.like(again, { eventId: firstResult.eventId, duplicate: true });
      t.falsy((await ingest(temporal, taskQueue, acct.app_id, sub('renewal'))).error);
      const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
      t.is(conversion.billing_cycles, 2);
      const earns = (await commissionsOf(db, conversion.id)).filter((c) => c.kind === 'earn');
      t.is(earns.length, 2, 'one commission per period, none doubled');
      t.deepEqual(
        earns.map((e) => e.commission_micros),
        [3_000_000, 3_000_000],
      );
      await assertExactBooks(t, db, acct.org_id);
      await waitFor(
        async () => (await commissionsOf(db, conversion.id)).filter((c) => c.kind === 'earn' && c.status === 'payable').length === 2,
        'the release',
        30_000,
      );
      await assertExactBooks(t, db, acct.org_id);
      const entries = await db('wallet_ledger')
        .where('org_id', acct.org_id)
        .whereIn(
          'commission_id',
          earns.map((e) => e.id),
        )
        .select('entry_type');
      t.deepEqual(
        entries.map((e) => e.entry_type),
        ['reserve', 'reserve'],
        'one reservation per commission, nothing more',
      );
    });
    await current.connection.close();
  },
);
