// The auto-recharge workflow on the run's dev server with the real activities: starts that race join one run
// (conflict policy USE_EXISTING), failed charges are retried after a doubling wait, every retry first checks the
// charge is still due (a human turning it off stops the run), and the run turns auto-recharge off after the last
// allowed failure.
import test from 'ava';
import { testCardMethod } from '../../clients/payments/test-mode.js';
import { disableAutoRecharge, enableAutoRecharge } from '../../db/auto-recharge-writes.js';
import { startAutoRecharge } from '../../workflow-clients/auto-recharge.js';
import { autoRechargeWorkflowId, type AutoRechargeResult } from '../../workflows/auto-recharge-messages.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp } from '../helpers/seed.js';

const h = useHarness(test, { api: false });

async function decliningOrg(): Promise<string> {
  const { org_id } = await seedApp(h().db, { walletUsd: 20 });
  await enableAutoRecharge(h().db, org_id, {
    provider: 'test',
    thresholdMicros: 50_000_000,
    amountMicros: 100_000_000,
    method: testCardMethod('test_card_declined'),
  });
  return org_id;
}

const start = (orgId: string, maxAttempts: number, retrySeconds: number) =>
  startAutoRecharge(
    {
      client: h().temporal,
      taskQueue: h().taskQueue,
      config: { AUTO_RECHARGE_MAX_ATTEMPTS: maxAttempts, AUTO_RECHARGE_RETRY_SECONDS: retrySeconds },
    },
    orgId,
  );

const attempts = (orgId: string) =>
  h().db('payments').where({ org_id: orgId, kind: 'auto_recharge' }).orderBy('created_at').select('status', 'created_at', 'request_key');

test('racing starts join one run; failures wait 1 s then 2 s; the last one turns auto-recharge off', async (t) => {
  const orgId = await decliningOrg();
  const runs = await Promise.all([start(orgId, 3, 1), start(orgId, 3, 1), start(orgId, 3, 1)]);
  t.is(new Set(runs).size, 1, 'one run');
  const result = (await h().temporal.workflow.getHandle(autoRechargeWorkflowId(orgId)).result()) as AutoRechargeResult;
  t.like(result, { outcome: 'disabled', attempts: 3 });
  const rows = await attempts(orgId);
  t.deepEqual(
    rows.map((r) => r.status),
    ['failed', 'failed', 'failed'],
  );
  t.deepEqual(
    rows.map((r) => r.request_key.split('/').at(-1)),
    ['1', '2', '3'],
    'one payment per attempt, keyed on it',
  );
  const gaps = rows.slice(1).map((r, i) => r.created_at.getTime() - rows[i]!.created_at.getTime());
  t.true(gaps[0]! >= 1000 && gaps[1]! >= 2000, `doubling back-off: ${gaps.join(', ')} ms`);
  const org = await h().db('organizations').where('id', orgId).first();
  t.false(org.auto_recharge_enabled);
  t.regex(org.auto_recharge_disabled_reason, /turned off after 3 failed charge\(s\) in a row/);
});

test('a human turning auto-recharge off during the back-off ends the run without another charge', async (t) => {
  const orgId = await decliningOrg();
  await start(orgId, 3, 3);
  for (let i = 0; i < 100 && (await attempts(orgId)).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  await disableAutoRecharge(h().db, orgId, null);
  t.is(
    await start(orgId, 3, 3),
    (await h().temporal.workflow.getHandle(autoRechargeWorkflowId(orgId)).describe()).runId,
    'a start while it waits joins it',
  );
  const result = (await h().temporal.workflow.getHandle(autoRechargeWorkflowId(orgId)).result()) as AutoRechargeResult;
  t.like(result, { outcome: 'not_needed', reason: 'auto-recharge is off', attempts: 1 });
  t.is((await attempts(orgId)).length, 1);
  t.is(
    (await h().db('organizations').where('id', orgId).first()).auto_recharge_disabled_reason,
    null,
    'turned off by the human, not the service',
  );
});
