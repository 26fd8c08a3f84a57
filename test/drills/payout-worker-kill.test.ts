// Fault drill: payouts and a killed worker. A run is recorded (phase 1) with no workflow behind it, as if the process
// died between the phases; `svc worker` (a process, Stripe Connect through the stub) takes the run up at start and is
// SIGKILLed while transfers are in flight (one answer lost on the wire as well); a new worker finishes. In the end
// every payout has exactly one Transfer at Stripe, recorded once, and the books are exact. The worker takes the run up
// through its resume pass (jobs/payout-resume.ts), at start and every PAYOUT_RESUME_EVERY_MS.
import test from 'ava';
import { runPayoutRun } from '../../actions/payout-run.js';
import { assertWorkflowGeneration } from '../../runtime/workflow-generation.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { requireTestEnv } from '../helpers/env.js';
import { useHarness } from '../helpers/harness.js';
import { makePayableCommission } from '../helpers/payable.js';
import { connectReady, mountConnect, payoutsOf } from '../helpers/payouts.js';
import { seedApp } from '../helpers/seed.js';
import { startSvc, waitFor, type SvcProcess } from '../helpers/svc-processes.js';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';

const SECRET = 'sk_test_stub_secret_key';
const CONNECT_SECRET = 'whsec_test_connect';
const CREATORS = 4;
let stub: StripeStub;
const stubReady = startStripeStub(SECRET, 'whsec_test_platform').then((s) => {
  stub = s;
});
const h = useHarness(test, {
  env: {
    STRIPE_SECRET_KEY: SECRET,
    STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    STRIPE_API_ROOT: 'http://127.0.0.1:9/',
    HOLDING_PERIOD_DAY_MS: '500',
  },
  mount: mountConnect,
});

test.before(async () => {
  await h.ready();
  await stubReady;
  h().config.STRIPE_API_ROOT = stub.url;
  // Recorded before any purchase, as `svc worker` would: the worker processes below then accept this database.
  await assertWorkflowGeneration(h().db);
});
test.after.always(async () => {
  await stub?.close();
});

test('a worker killed between the phases and inside phase 2: every payout transferred once, the books exact', async (t) => {
  t.timeout(4 * 60_000);
  const { db, database } = h();
  const first = await seedApp(db, { walletUsd: 1000 });
  const apps = [first];
  for (let i = 1; i < CREATORS; i++) apps.push(await seedApp(db, { orgId: first.org_id, walletUsd: 0 }));
  for (const [i, app] of apps.entries()) {
    await makePayableCommission(db, h().baseUrl, app, `drill-pay-${i}`);
    await connectReady(h().baseUrl, db, stub, CONNECT_SECRET, app.creator_id);
  }
  stub.connect.balance.available = 10_000_000;
  // Phase 1 committed, and nothing started phase 2: the process "died" between them.
  const run = await runPayoutRun({ db }, { orgId: first.org_id, runId: 'drill-run', createdBy: 'drill' });
  t.is(run.payouts.length, CREATORS);

  const running: SvcProcess[] = [];
  try {
    const vars = {
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: requireTestEnv().temporalAddress,
      TEMPORAL_TASK_QUEUE: `drill-${first.org_id}`,
      STRIPE_SECRET_KEY: SECRET,
      STRIPE_API_ROOT: stub.url,
      PAYOUT_PROVIDER: 'stripe',
    };
    stub.connect.transferDelayMs = 1500;
    stub.connect.dropTransferReplies = 1;
    const worker = await startSvc('worker', vars);
    running.push(worker);
    await waitFor(async () => stub.connect.transfers.size >= 1, 'a first transfer at Stripe', 60_000);
    await worker.kill('SIGKILL');
    const recordedAtKill = (await payoutsOf(db, first.org_id)).filter((p) => p.transfer_status === 'transferred').length;
    t.log(`worker SIGKILLed with ${stub.connect.transfers.size} transfer(s) at Stripe and ${recordedAtKill} recorded`);
    stub.connect.transferDelayMs = 0;
    running.push(await startSvc('worker', vars));
    await waitFor(
      async () => (await payoutsOf(db, first.org_id)).every((p) => p.transfer_status === 'transferred'),
      'every payout transferred',
      120_000,
    );
  } finally {
    for (const p of running.reverse()) await p.kill('SIGTERM');
  }
  const payouts = await payoutsOf(db, first.org_id);
  const transfers = [...stub.connect.transfers.values()];
  t.is(transfers.length, CREATORS, 'one transfer per payout, none twice');
  for (const p of payouts) {
    const sent = transfers.filter((tr) => tr.metadata.payout_id === p.id);
    t.is(sent.length, 1);
    t.is(p.transfer_id, sent[0]!.id);
    t.is(sent[0]!.amount, Math.round(Number(p.net_micros) / 10_000));
  }
  await assertExactBooks(t, db, first.org_id);
});
