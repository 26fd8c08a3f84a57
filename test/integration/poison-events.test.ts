// Poison events, against `svc api` and `svc worker` processes: an event the purchase activity cannot apply (a bug,
// here made real with a database trigger that crashes on one price, and a TypeError on a payload the apply code does
// not expect) gets a bounded number of attempts inside the 25-second answer limit, is recorded as failed with its
// reason (webhook answer, events/recent, the workflow's history, the worker's /metrics), and its conversion goes on.
// After the fix an operator re-drives it with `svc events retry`; it is then applied exactly once.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { idempotencyKey, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import { sumWalletLedger } from '../../db/wallet-ledger.js';
import { conversionWorkflowId } from '../../workflows/conversion-messages.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { countRows } from '../helpers/db.js';
import { request } from '../helpers/http.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startSvc, waitFor, type SvcProcess } from '../helpers/svc-processes.js';

const { h, seed } = useSeededHarness(test, { worker: false, api: false });
let api: SvcProcess;
let worker: SvcProcess;

const vars = () => ({ DATABASE_URL: h().database.url, TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS!, TEMPORAL_TASK_QUEUE: h().taskQueue });

test.before(async () => {
  await h.ready();
  worker = await startSvc('worker', vars());
  api = await startSvc('api', vars());
});

test.after.always(async () => {
  await api?.kill();
  await worker?.kill();
});

const send = (body: unknown) => sendWebhook(api.url, seed.app_id, seed.webhook_secret, body);
const metrics = async () => (await fetch(`${worker.url}/metrics`)).text();
const metricValue = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.split(' ')[1] ?? 'NaN',
  );
const retry = (...args: string[]) => runSvc(['events', 'retry', '--app', seed.app_id, '--json', ...args], cliEnv(vars()), 120_000);
const recentWebhooks = async () =>
  (await request(api.url, 'GET', `/api/agent/apps/${seed.app_id}/events/recent?limit=100`, { token: seed.agent_key })).body.webhooks as {
    event_id: string;
    failed: boolean;
    error: string | null;
  }[];

// $4.99 at 30% = 1,500,000 (whole cents) + 10% fee = 1,650,000; $9.99: 3,300,000.
const RESERVE_499 = 1_650_000;
const RESERVE_999 = 3_300_000;

test.serial(
  'an event that cannot be applied: failed with its reason within the answer ' +
    'limit, the conversion goes on, svc events retry applies it once after the fix',
  async (t) => {
    t.timeout(4 * 60_000);
    const db = h().db;
    const bug = `poison_${randomBytes(3).toString('hex')}`;
    // The "bug": applying a $4.99 purchase crashes (SQLSTATE P0001: neither an outage nor refused data).
    await db.raw(
      `create function ${bug}() returns trigger language plpgsql as $$ begin raise exception 'simulated bug: cannot price 4.99'; end $$`,
    );
    await db.raw(
      `create trigger ${bug} before insert on commissions for each row when (new.revenue_usd_micros = 4990000) execute function ${bug}()`,
    );
    const before = await sumWalletLedger(db, seed.org_id);
    const sub = subscription('poison-1', seed.creator_code);
    const cheap = sub('initial_purchase', { price: 4.99, price_in_purchased_currency: 4.99 });

    const started = Date.now();
    const failed = await send(cheap);
    const elapsed = Date.now() - started;
    t.is(failed.status, 200, failed.text);
    t.true(elapsed < 25_000, `answered within the 25 s limit (${elapsed} ms)`);
    t.regex(failed.body.error, /^event could not be applied: error P0001: simulated bug: cannot price 4\.99/);
    t.log(`failed event answered after ${elapsed} ms: ${failed.body.error}`);
    const eventId = failed.body.event_id as string;
    t.like(await db('purchase_events').where('id', eventId).first(), {
      processing_status: 'failed',
      product_id: 'pro_monthly',
      conversion_id: null,
    });

    // A redelivery answers the same at once; the counter counts the failure once.
    const again = await send(cheap);
    t.like(again.body, { event_id: eventId, error: failed.body.error });
    const text = await metrics();
    t.is(
      metricValue(text, 'svc_purchase_events_failed_total{event_type="INITIAL_PURCHASE"}'),
      1,
      text
        .split('\n')
        .filter((l) => l.includes('svc_'))
        .join('\n'),
    );
    t.is(metricValue(text, 'svc_purchase_events_failed'), 1);

    // Visible to the developer's agent and in the workflow's history (the Temporal UI shows the same).
    t.like(
      (await recentWebhooks()).find((w) => w.event_id === eventId),
      { failed: true, error: failed.body.error },
    );
    const history = JSON.stringify(
      await h().temporal.workflow.getHandle(conversionWorkflowId(seed.app_id, cheap.event.original_transaction_id)).fetchHistory(),
    );
    t.true(history.includes('simulated bug: cannot price 4.99'), 'the failure is in the workflow history');

    // The conversion goes on: the next event of the subscription is applied.
    const renewal = await send(sub('renewal'));
    t.is(renewal.status, 200, renewal.text);
    t.falsy(renewal.body.error);
    t.is((await sumWalletLedger(db, seed.org_id)).reservedMicros - before.reservedMicros, RESERVE_999);

    // The fix, then the operator's re-drive: applied once; a second run finds nothing to do.
    await db.raw(`drop trigger ${bug} on commissions`);
    const out = await retry();
    t.is(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    t.like(report, { app_id: seed.app_id, retried: 1, still_failed: 0 });
    t.like(report.events[0], { event_id: eventId, status: 'processed', error: null, retried: true });
    t.like(await db('purchase_events').where('id', eventId).first(), { processing_status: 'processed', attributed: true, error: null });
    t.is(await countRows(db('commissions').where('purchase_event_id', eventId)), 1);
    t.is((await sumWalletLedger(db, seed.org_id)).reservedMicros - before.reservedMicros, RESERVE_999 + RESERVE_499);
    const conversion = await db('conversions').where({ app_id: seed.app_id, app_user_id: 'poison-1' }).first();
    t.is(conversion.billing_cycles, 2);
    const second = await retry();
    t.is(second.code, 0, second.stderr);
    t.like(JSON.parse(second.stdout), { retried: 0, still_failed: 0, events: [] });
    // A later redelivery answers the applied result; nothing is counted twice.
    const redelivered = await send(cheap);
    t.like(redelivered.body, { event_id: eventId });
    t.falsy(redelivered.body.error);
    t.is(await countRows(db('commissions').where('purchase_event_id', eventId)), 1);
    t.is(metricValue(await metrics(), 'svc_purchase_events_failed'), 0);
  },
);

test.serial(
  'a TypeError on an unexpected payload in the inbox: recorded as failed ' +
    "by the drainer's hand-over, re-driven after the stored payload is corrected",
  async (t) => {
    t.timeout(4 * 60_000);
    const db = h().db;
    const sub = subscription('poison-2', seed.creator_code);
    const body = sub('initial_purchase');
    const event = { ...normalizeSubproviderEvent(body, Date.now()), aliases: {} };
    const key = idempotencyKey(seed.app_id, event);
    // What a producer with a looser normaliser might have stored: aliases as an object (PostgreSQL reads `{}` as an
    // empty array, so the row is written; the attribution code then spreads it). The drainer takes it at once.
    await db('purchase_inbox').insert({
      app_id: seed.app_id,
      idempotency_key: key,
      conversion_key: event.originalTransactionId,
      event_type: event.type,
      event: JSON.stringify(event),
      next_attempt_at: db.fn.now(),
    });
    // Recorded as failed by the workflow, then marked delivered by the drainer once the update's result is back.
    await waitFor(
      async () =>
        (await db('purchase_inbox').where({ app_id: seed.app_id, idempotency_key: key, status: 'delivered' }).first()) !== undefined,
      'the drainer to hand the event over',
      60_000,
    );
    const row = await db('purchase_events').where({ app_id: seed.app_id, app_user_id: 'poison-2' }).first();
    t.regex(row.error, /^event could not be applied: TypeError: /);
    t.like(await db('purchase_inbox').where({ app_id: seed.app_id, idempotency_key: key }).first(), {
      status: 'delivered',
      purchase_event_id: row.id,
    });
    t.like(
      (await recentWebhooks()).find((w) => w.event_id === row.id),
      { failed: true },
    );
    t.is(metricValue(await metrics(), 'svc_purchase_events_failed_total{event_type="INITIAL_PURCHASE"}'), 2);

    // Re-driven before any fix it fails again: reported, exit 1.
    const early = await retry('--event', row.id);
    t.is(early.code, 1, early.stderr);
    t.like(JSON.parse(early.stdout), { retried: 1, still_failed: 1 });
    t.like(await db('purchase_events').where('id', row.id).first(), { processing_status: 'failed' });

    // The conversion goes on.
    const renewal = await send(sub('renewal'));
    t.is(renewal.status, 200, renewal.text);
    t.falsy(renewal.body.error);

    // The fix (here: the stored payload corrected), then the re-drive of that one event.
    await db('purchase_inbox')
      .where({ app_id: seed.app_id, idempotency_key: key })
      .update({ event: db.raw(`jsonb_set(event, '{aliases}', '[]')`) });
    const out = await retry('--event', row.id);
    t.is(out.code, 0, out.stderr);
    t.like(JSON.parse(out.stdout), { retried: 1, still_failed: 0 });
    t.like(await db('purchase_events').where('id', row.id).first(), { processing_status: 'processed', attributed: true });
    t.is(await countRows(db('commissions').where('purchase_event_id', row.id)), 1);
    t.is(await countRows(db('purchase_events').where({ app_id: seed.app_id, app_user_id: 'poison-2' })), 2);
  },
);

test.serial('svc events retry: unknown app or event is a usage error', async (t) => {
  const noApp = await runSvc(['events', 'retry', '--app', 'app_nope'], cliEnv(vars()));
  t.is(noApp.code, 2);
  t.regex(noApp.stderr, /no app app_nope/);
  const noEvent = await retry('--event', 'pev_nope');
  t.is(noEvent.code, 2);
  t.regex(noEvent.stderr, /no failed event pev_nope/);
});
