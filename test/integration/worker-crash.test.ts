// A worker killed in the middle of applying an event: the event is applied exactly once after another worker
// takes over (the activity's transaction died with the worker; the retried attempt commits it), and an activity
// attempt repeated after its commit is a no-op answered with the first result.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { createPurchaseActivities } from '../../activities/purchases/index.js';
import { idempotencyKey, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';
import { cliEnv, SVC_BIN } from '../helpers/cli.js';
import { countRows } from '../helpers/db.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

function startWorker(): { child: ChildProcess; exited: Promise<unknown> } {
  const child = spawn(process.execPath, [SVC_BIN, 'worker'], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
    env: cliEnv({
      DATABASE_URL: h().database.url,
      TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: h().taskQueue,
      WORKER_METRICS_PORT: '0',
    }),
  });
  return { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test.serial('a worker killed mid-event: the event is applied once, by the next worker', async (t) => {
  const db = h().db;
  const sub = subscription('crash-1', seed.creator_code);
  const body = sub('initial_purchase');
  const first = startWorker();
  // Hold the event log so the activity blocks inside its transaction, then kill the worker running it.
  const blocker = await db.transaction();
  await blocker.raw('lock table purchase_events in share mode');
  const answer = sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
  try {
    await waitFor(async () => {
      const rows = await db('pg_stat_activity')
        .where('wait_event_type', 'Lock')
        .andWhere('query', 'like', 'insert into "purchase_events"%');
      return rows.length > 0;
    }, 'the activity to block on the event log');
    first.child.kill('SIGKILL');
    await first.exited;
  } finally {
    await blocker.commit();
  }
  t.is(
    await countRows(db('purchase_events').where({ app_id: seed.app_id, app_user_id: 'crash-1' })),
    0,
    'the killed attempt committed nothing',
  );
  const second = startWorker();
  try {
    let res = await answer;
    // The takeover (a new worker process bundling its workflows, the workflow task timing out) can outlast the API's
    // 25 s answer on a loaded machine: the event then waits in the inbox (503) and the provider delivers it again.
    for (let attempt = 0; res.status === 503 && attempt < 12; attempt++) {
      await new Promise((r) => setTimeout(r, 5000));
      res = await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
    }
    t.is(res.status, 200, res.text);
    t.regex(res.body.event_id, /^pev_/);
    t.falsy(res.body.error);
    t.is(await countRows(db('purchase_events').where({ app_id: seed.app_id, app_user_id: 'crash-1' })), 1);
    const conversion = await db('conversions').where({ app_id: seed.app_id, app_user_id: 'crash-1' }).first();
    t.is(await countRows(db('commissions').where('conversion_id', conversion.id)), 1);
    t.is(await countRows(db('wallet_ledger').where({ org_id: seed.org_id, entry_type: 'reserve' })), 1);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});

test.serial('an activity attempt repeated after it committed changes nothing and answers the first result', async (t) => {
  const activities = createPurchaseActivities({ db: h().db, platformFeePercent: 10 });
  const applyPurchaseEvent = (i: Parameters<typeof activities.applyPurchaseEvent>[0]) => activities.applyPurchaseEvent(i);
  const event = normalizeSubproviderEvent(subscription('crash-2', seed.creator_code)('initial_purchase'), Date.now());
  const ingest = {
    appId: seed.app_id,
    conversionKey: event.originalTransactionId!,
    idempotencyKey: idempotencyKey(seed.app_id, event),
    event,
  };
  const once = await applyPurchaseEvent(ingest);
  const twice = await applyPurchaseEvent(ingest);
  t.false(once.duplicate);
  t.like(twice, { eventId: once.eventId, conversionId: once.conversionId, error: once.error, duplicate: true });
  t.is(await countRows(h().db('commissions').where('conversion_id', once.conversionId)), 1);
});
