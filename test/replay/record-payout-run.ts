// The payout-run workflow and the daily platform balance check for `npm run replay:record`. Each run is one new
// organization whose creator has a payable commission (a purchase through the real conversion workflow on a campaign
// held one day, 100 ms here) and a payout account in the embedded test mode (clients/payouts/test-mode.ts, which
// reads its balance from the configuration at each call). `payout-run-paid`: planned, one transfer sent.
// `payout-run-returned`: the platform holds nothing, the payout is returned. `payout-run-funds-wait`: the funds are
// still pending, the payout waits (a durable timer, PAYOUT_FUNDS_RETRY_SECONDS = 1 here) and is sent once they are
// available. `platform-balance-check`: the check against the Stripe stub (test/stubs/stripe.ts), as
// test/integration/payout-cents.test.ts runs it.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../runtime/config.js';
import { startPayoutRun } from '../../workflow-clients/payout-runs.js';
import { BALANCE_CHECK_WORKFLOW, payoutRunWorkflowId, type PayoutRunOutcome } from '../../workflows/payout-run-messages.js';
import { ingest } from '../helpers/conversion-client.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { seedApp } from '../helpers/seed.js';
import { subscription } from '../helpers/subprovider-events.js';
import { startStripeStub } from '../stubs/stripe.js';
import { historyJson, type Recorded, type Recording } from './history-json.js';

type Balance = Pick<Config, 'PAYOUT_TEST_AVAILABLE_USD' | 'PAYOUT_TEST_PENDING_USD' | 'PAYOUT_FUNDS_RETRY_SECONDS'>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new organization with one payable commission of a creator whose test-mode payout account is ready. */
async function payableOrganization(r: Recording): Promise<string> {
  const app = await seedApp(r.db, { walletUsd: 500 });
  await r.db('campaigns').where('id', app.campaign_id).update({ holding_period_days: 1 });
  await connectTestAccount(r.db, app.creator_id);
  const result = await ingest(
    r.client,
    r.taskQueue,
    app.app_id,
    subscription(`replay-payout-${app.org_id}`, app.creator_code)('initial_purchase'),
  );
  if (!result.eventId) throw new Error('payout-run: the purchase was not applied');
  for (let i = 0; i < 300; i += 1) {
    const row = await r.db('commissions').where({ org_id: app.org_id, kind: 'earn' }).first('status');
    if (row?.status === 'payable') return app.org_id;
    await pause(100);
  }
  throw new Error('payout-run: the commission did not become payable');
}

/** A run whose history shows a timer: funds are made available once the first transfer attempt said "waiting". */
async function makeAvailableOnceWaiting(r: Recording, workflowId: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    const history = JSON.parse((await historyJson(r.address, workflowId)).json) as { events: { eventType: string }[] };
    if (history.events.some((e) => e.eventType === 'EVENT_TYPE_TIMER_STARTED')) break;
    await pause(100);
  }
  r.config.PAYOUT_TEST_AVAILABLE_USD = undefined;
}

export async function recordPayoutRuns(r: Recording): Promise<Recorded[]> {
  const saved: Balance = {
    PAYOUT_TEST_AVAILABLE_USD: r.config.PAYOUT_TEST_AVAILABLE_USD,
    PAYOUT_TEST_PENDING_USD: r.config.PAYOUT_TEST_PENDING_USD,
    PAYOUT_FUNDS_RETRY_SECONDS: r.config.PAYOUT_FUNDS_RETRY_SECONDS,
  };
  const runs: { name: string; balance: Partial<Balance>; expect: string }[] = [
    { name: 'payout-run-paid', balance: { PAYOUT_TEST_AVAILABLE_USD: undefined }, expect: 'transferred' },
    { name: 'payout-run-returned', balance: { PAYOUT_TEST_AVAILABLE_USD: 0, PAYOUT_TEST_PENDING_USD: 0 }, expect: 'returned' },
    {
      name: 'payout-run-funds-wait',
      balance: { PAYOUT_TEST_AVAILABLE_USD: 0, PAYOUT_TEST_PENDING_USD: 1000, PAYOUT_FUNDS_RETRY_SECONDS: 1 },
      expect: 'transferred',
    },
  ];
  const recorded: Recorded[] = [];
  try {
    for (const run of runs) {
      const orgId = await payableOrganization(r);
      Object.assign(r.config, saved, run.balance);
      const runId = `replay-${randomUUID()}`;
      await startPayoutRun({ client: r.client, taskQueue: r.taskQueue }, runId, { orgId, createdBy: 'replay recording' });
      const handle = r.client.workflow.getHandle<() => Promise<PayoutRunOutcome>>(payoutRunWorkflowId(runId));
      if (run.name === 'payout-run-funds-wait') await makeAvailableOnceWaiting(r, handle.workflowId);
      const outcome = await handle.result();
      const steps = outcome.payouts.map((p) => p.step.status);
      if (steps.join() !== run.expect) throw new Error(`${run.name}: unexpected outcome ${JSON.stringify(outcome)}`);
      recorded.push({ name: run.name, ...(await historyJson(r.address, handle.workflowId)) });
    }
  } finally {
    Object.assign(r.config, saved);
  }
  return recorded;
}

export async function recordBalanceCheck(r: Recording): Promise<Recorded> {
  const secret = 'sk_test_stub_secret_key';
  const stub = await startStripeStub(secret, 'whsec_test_platform');
  const saved = { STRIPE_SECRET_KEY: r.config.STRIPE_SECRET_KEY, STRIPE_API_ROOT: r.config.STRIPE_API_ROOT };
  try {
    Object.assign(r.config, { STRIPE_SECRET_KEY: secret, STRIPE_API_ROOT: stub.url });
    const workflowId = `replay-balance-check-${randomUUID()}`;
    const report = await r.client.workflow.execute(BALANCE_CHECK_WORKFLOW, { taskQueue: r.taskQueue, workflowId, args: [] });
    if ((report as { checked: boolean }).checked !== true) throw new Error(`platform-balance-check: ${JSON.stringify(report)}`);
    return { name: 'platform-balance-check', ...(await historyJson(r.address, workflowId)) };
  } finally {
    Object.assign(r.config, saved);
    await stub.close();
  }
}
