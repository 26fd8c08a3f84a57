// One rule for who is paid (actions/payout-run.ts, lib/payout-holdover.ts), in the embedded test mode: an on-demand
// run from the wallet page and from `svc payouts run` with one creator ready and one without a payout account pays
// the first and holds the second over, listed with the reason in the preview, on the run's page and in the CLI's
// `held_over`, never "paid" or "sending"; the CLI's first answer is `sending` and a repeat of its run id the outcome.
// Nothing waits for a restart: the worker's resume pass (jobs/payout-resume.ts) starts a run left pending, joins it
// while it waits for funds (PAYOUT_TEST_AVAILABLE_USD / PAYOUT_TEST_PENDING_USD) and the payout goes out once.
import test from 'ava';
import { runPayoutRun } from '../../actions/payout-run.js';
import { startPayoutResume } from '../../jobs/payout-resume.js';
import { createLogger } from '../../runtime/logger.js';
import { inputValue } from '../helpers/browser.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { signInDashboard, type DashboardSession } from '../helpers/dashboard.js';
import { requireTestEnv } from '../helpers/env.js';
import { makePayableCommission } from '../helpers/payable.js';
import { connectTestAccount, payoutIn } from '../helpers/payouts.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { waitFor } from '../helpers/svc-processes.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '500', PAYOUT_FUNDS_RETRY_SECONDS: '1' } });
let owner: DashboardSession;

test.before(async () => {
  await h.ready();
  owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
});

const url = (path: string) => `${h().baseUrl}${path}`;

async function svcPayouts(args: string[], json = true) {
  const env = cliEnv({
    DATABASE_URL: h().database.url,
    TEMPORAL_ADDRESS: requireTestEnv().temporalAddress,
    TEMPORAL_TASK_QUEUE: h().taskQueue,
  });
  const res = await runSvc(['payouts', 'run', ...args, ...(json ? ['--json'] : [])], env);
  if (res.code !== 0) throw new Error(`svc payouts run failed (${res.code}): ${res.stderr}`);
  return json ? JSON.parse(res.stdout) : res.stdout;
}

test.serial(
  'on demand (wallet page, then the CLI): the creator without a payout account is held over with the reason, never paid',
  async (t) => {
    const { db } = h();
    const ready = await makePayableCommission(db, h().baseUrl, seed, 'holdover-ready');
    await connectTestAccount(db, ready.creator_id);
    const other = await seedApp(db, { orgId: seed.org_id });
    const unready = await makePayableCommission(db, h().baseUrl, other, 'holdover-none');
    t.is(unready.creator_id, other.creator_id);

    const preview = await owner.browser.fetch(url('/dashboard/wallet/payouts/preview'));
    t.is(preview.status, 200);
    t.regex(preview.text, /Pay 1 creator /);
    const [toPay, held] = preview.text.split('class="held-over"');
    t.true(toPay!.includes(ready.creator_id));
    t.false(toPay!.includes(other.creator_id), 'the held-over creator is not among those paid');
    t.regex(held!, new RegExp(`data-held="${other.creator_id}"[\\s\\S]*?<td>no payout account connected</td>`));

    const runId = inputValue(preview.text, 'run_id')!;
    const done = await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), {
      form: { csrf: inputValue(preview.text, 'csrf')!, run_id: runId },
    });
    t.is(done.status, 303);
    t.deepEqual(
      (await db('payouts').where('run_id', runId)).map((p) => p.creator_id),
      [ready.creator_id],
    );
    t.like(await db('commissions').where('id', unready.id).first(), { status: 'payable', payout_id: null });
    await payoutIn(db, seed.org_id, ready.creator_id, 'transferred');
    const page = await owner.browser.fetch(url(`/dashboard/wallet/payouts/${runId}`));
    const [lines, heldOnPage] = page.text.split('class="held-over"');
    t.regex(lines!, /data-status="paid"><span class="badge ok" data-state="paid">paid<\/span> \(tr_test_/);
    t.false(lines!.includes(other.creator_id), 'no payout line for the held-over creator: neither "paid" nor "sending"');
    t.regex(heldOnPage!, new RegExp(`data-held="${other.creator_id}"[\\s\\S]*?<td>no payout account connected</td>`));

    // The CLI, the same rule: a dry run lists the holdover and records nothing.
    const again = await makePayableCommission(db, h().baseUrl, seed, 'holdover-ready-cli');
    const dry = await svcPayouts(['--org', seed.org_id, '--run-id', `dry-${seed.org_id}`, '--dry-run']);
    t.like(dry, { dry_run: true, payouts: [{ creator_id: ready.creator_id, status: null, payout_id: null }] });
    t.is(await db('payout_runs').where('id', `dry-${seed.org_id}`).first(), undefined);

    const cliRun = `cli-${seed.org_id}`;
    const first = await svcPayouts(['--org', seed.org_id, '--run-id', cliRun]);
    t.like(first, { run_id: cliRun, dry_run: false, already_run: false, transfers: 'started' });
    t.deepEqual(
      first.payouts.map((p: { creator_id: string; status: string }) => [p.creator_id, p.status]),
      [[ready.creator_id, 'sending']],
      'the first answer: sending',
    );
    t.is(first.payouts[0].net_micros, again.commission_micros);
    t.is(first.payouts[0].net_usd, Math.round(again.commission_micros / 10_000) / 100);
    const heldOver = [
      {
        creator_id: other.creator_id,
        payable_usd: Math.round(unready.commission_micros / 10_000) / 100,
        payable_micros: unready.commission_micros,
        reason: 'no payout account connected',
      },
    ];
    t.deepEqual(first.held_over, heldOver);
    t.deepEqual(dry.held_over, heldOver);

    await waitFor(
      async () => (await db('payouts').where('run_id', cliRun).first()).transfer_status === 'transferred',
      'the transfer',
      30_000,
    );
    const repeat = await svcPayouts(['--org', seed.org_id, '--run-id', cliRun]);
    t.like(repeat, { already_run: true, transfers: 'none' });
    t.deepEqual(
      repeat.payouts.map((p: { status: string }) => p.status),
      ['paid'],
      'a repeat answers the outcome',
    );
    t.deepEqual(repeat.held_over, heldOver, 'the holdovers were recorded with the run');
    const human = await svcPayouts(['--org', seed.org_id, '--run-id', cliRun], false);
    t.regex(human, new RegExp(`${ready.creator_id}: .*: paid\\n`));
    t.regex(human, new RegExp(`held over .*\\n  ${other.creator_id}: \\$[0-9.]+ USD: no payout account connected`));
    t.like(await db('commissions').where('id', unready.id).first(), { status: 'payable', payout_id: null });

    // Only the held-over creator is payable now: the preview says nobody would be paid, and why.
    const none = await owner.browser.fetch(url('/dashboard/wallet/payouts/preview'));
    t.regex(none.text, /No creator would be paid now: everyone payable is held over\./);
    t.regex(none.text, new RegExp(`data-held="${other.creator_id}"[\\s\\S]*?<td>no payout account connected</td>`));
    t.is(inputValue(none.text, 'run_id'), undefined, 'nothing to confirm');
    await assertExactBooks(t, db, seed.org_id);
  },
);

test.serial(
  'the resume pass sends a run left pending without a restart, joins it while it waits for funds, and it goes out once',
  async (t) => {
    const { db, config } = h();
    const app = await seedApp(db);
    await makePayableCommission(db, h().baseUrl, app, 'resume-wait');
    await connectTestAccount(db, app.creator_id);
    config.PAYOUT_TEST_AVAILABLE_USD = 0;
    config.PAYOUT_TEST_PENDING_USD = 1000;
    t.teardown(() => {
      config.PAYOUT_TEST_AVAILABLE_USD = undefined;
      config.PAYOUT_TEST_PENDING_USD = 0;
    });
    const runId = `resume-${app.org_id}`;
    t.like(await runPayoutRun({ db }, { orgId: app.org_id, runId, createdBy: 'test' }), { transfers: 'left_to_worker' });
    const handle = h().temporal.workflow.getHandle(`payout-run/${runId}`);
    const state = () =>
      handle.describe().then(
        (d) => ({ status: d.status.name, execution: d.runId }),
        () => undefined,
      );
    t.is(await state(), undefined, 'phase 2 was not started');

    const pass = startPayoutResume(
      { db, client: h().temporal, taskQueue: h().taskQueue },
      { PAYOUT_RESUME_EVERY_MS: 300 },
      createLogger('silent', 'test'),
    );
    t.teardown(() => pass.stop());
    await waitFor(async () => (await state())?.status === 'RUNNING', 'the pass to start the run', 20_000);
    const started = (await state())!;
    // available 0 < net <= pending: the payout waits (looking again every second) while about seven passes run.
    await new Promise((r) => setTimeout(r, 2000));
    t.is((await db('payouts').where('run_id', runId).first()).transfer_status, 'transfer_pending', 'nothing sent while funds are pending');
    t.deepEqual(await state(), started, 'the passes joined the run under way: no second workflow');

    config.PAYOUT_TEST_AVAILABLE_USD = 1000;
    const sent = await payoutIn(db, app.org_id, app.creator_id, 'transferred', 20_000);
    t.is(sent.transfer_id, `tr_test_${sent.id}`);
    await handle.result();
    await new Promise((r) => setTimeout(r, 700));
    t.is((await state())!.execution, started.execution, 'one workflow for the run, start to end');
    t.is((await db('creator_digest_items').where({ payout_id: sent.id, kind: 'payout_sent' })).length, 1, 'sent once');
    t.is((await db('wallet_ledger').where({ org_id: app.org_id, entry_type: 'payout' })).length, 1);
    await assertExactBooks(t, db, app.org_id);
  },
);
