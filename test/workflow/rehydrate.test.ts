// Workflow generations through the real `svc` binary: a worker refuses a database whose conversion runs an older
// generation recorded, naming the way out; `svc workflows rehydrate` terminates the open runs and starts each
// again from PostgreSQL (its held release included), after which a renewal, a redelivery and the release are
// exact. A holding-period day lasts one second here.
import test from 'ava';
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
const h = useHarness(test, { api: false, env: { HOLDING_PERIOD_DAY_MS: String(DAY_MS) } });
const svcEnv = () => cliEnv({
  DATABASE_URL: h().database.url, TEMPORAL_ADDRESS: requireTestEnv().temporalAddress, TEMPORAL_TASK_QUEUE: h().taskQueue,
  HOLDING_PERIOD_DAY_MS: String(DAY_MS), WORKER_METRICS_PORT: '0',
});

test.serial('svc worker refuses a database of an older workflow generation, naming svc workflows rehydrate and svc dev --reset', async (t) => {
  await recordWorkflowGeneration(h().db, 'conversion', CONVERSION_WORKFLOW_GENERATION - 1);
  const refused = await runSvc(['worker'], svcEnv());
  t.is(refused.code, 1, refused.stdout);
  t.regex(refused.stderr, /older generation/);
  t.regex(refused.stderr, /svc workflows rehydrate/);
  t.regex(refused.stderr, /svc dev --reset/);
});

test.serial('svc workflows rehydrate restarts open runs from PostgreSQL; a renewal, a redelivery and the held release are then exact', async (t) => {
  const { temporal, taskQueue, db } = h();
  const acct = await seedApp(db);
  await db('campaigns').where('id', acct.campaign_id).update({ holding_period_days: 4 });
  const sub = subscription('rehydrated', acct.creator_code);
  const first = sub('initial_purchase');
  const firstResult = await ingest(temporal, taskQueue, acct.app_id, first);
  t.falsy(firstResult.error);
  const handle = temporal.workflow.getHandle(conversionWorkflowId(acct.app_id, first.event.original_transaction_id));
  const oldRun = (await handle.describe()).runId;
  await recordWorkflowGeneration(db, 'conversion', CONVERSION_WORKFLOW_GENERATION - 1);

  const res = await runSvc(['workflows', 'rehydrate', '--json'], svcEnv());
  t.is(res.code, 0, res.stderr);
  const summary = JSON.parse(res.stdout) as { terminated: number; restarted: number; generation: number };
  t.true(summary.restarted >= 1 && summary.terminated >= summary.restarted, res.stdout);
  t.is(await findWorkflowGeneration(db, 'conversion'), CONVERSION_WORKFLOW_GENERATION);
  t.is((await temporal.workflow.getHandle(handle.workflowId, oldRun).describe()).status.name, 'TERMINATED');
  const fresh = await handle.describe();
  t.not(fresh.runId, oldRun);
  t.is(fresh.status.name, 'RUNNING');
  const attrs = Object.fromEntries(fresh.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
  t.like(attrs, { AppId: acct.app_id, AppUserId: 'rehydrated', ConversionStatus: 'active' });

  // The new run has no memory of the first event: the database's unique keys answer its redelivery.
  const again = await ingest(temporal, taskQueue, acct.app_id, first);
  t.like(again, { eventId: firstResult.eventId, duplicate: true });
  t.falsy((await ingest(temporal, taskQueue, acct.app_id, sub('renewal'))).error);
  const conversion = await conversionByKey(db, acct.app_id, first.event.original_transaction_id);
  t.is(conversion.billing_cycles, 2);
  const earns = (await commissionsOf(db, conversion.id)).filter((c) => c.kind === 'earn');
  t.is(earns.length, 2, 'one commission per period, none doubled');
  await assertExactBooks(t, db, acct.org_id);

  // Both are released by the new run's timer once held four (short) days.
  await waitFor(async () => (await commissionsOf(db, conversion.id)).filter((c) => c.kind === 'earn' && c.status === 'payable').length === 2, 'the release', 30_000);
  await assertExactBooks(t, db, acct.org_id);
  t.is(Number((await db('wallet_ledger').where('org_id', acct.org_id).whereIn('commission_id', earns.map((e) => e.id)).count<{ count: string }[]>('* as count'))[0]!.count), 2,
    'one reservation per commission, nothing more');
});
