// Inbox first, against `svc api` and `svc worker` processes: an API that cannot reach Temporal answers 503 with
// `{"detail"}` (on the webhook and the agent's test-integration alike) but keeps the event; the worker's drainer
// hands it over, in arrival order per conversion. A provider redelivery racing the drainer records each event once.
import test from 'ava';
import { freePort } from '../../runtime/ports.js';
import { countRows } from '../helpers/db.js';
import { request } from '../helpers/http.js';
import { fundGenerously, RESERVE_PER_PAID_EVENT } from '../helpers/provider.js';
import { sendWebhook, subscription, type ProviderBody } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startSvc, waitFor, type SvcProcess } from '../helpers/svc-processes.js';
import { sumWalletLedger } from '../../db/wallet-ledger.js';

const { h, seed } = useSeededHarness(test, { worker: false, api: false });
const running: SvcProcess[] = [];
let cutOff: SvcProcess;
let live: SvcProcess;

test.before(async () => {
  await h.ready();
  await fundGenerously(h().db, seed.org_id);
  const vars = { DATABASE_URL: h().database.url, TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS!, TEMPORAL_TASK_QUEUE: h().taskQueue };
  running.push(await startSvc('worker', vars));
  // An API whose Temporal is unreachable (nothing listens there), beside one that reaches it.
  cutOff = await startSvc('api', { ...vars, TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` });
  live = await startSvc('api', vars);
  running.push(cutOff, live);
});

test.after.always(async () => {
  for (const p of running.reverse()) await p.kill();
});

const inboxOf = (user: string) =>
  h().db('purchase_inbox').where('app_id', seed.app_id).whereRaw("event->>'appUserId' = ?", [user]).orderBy('id');

test(
  'Temporal unreachable: 503 with detail, the event waits in ' + 'the inbox and the drainer applies it, in order, exactly once',
  async (t) => {
    const sub = subscription('inbox-1', seed.creator_code);
    const purchase = sub('initial_purchase');
    const refund = sub('refund', { transaction_id: purchase.event.transaction_id, price: -9.99 });
    const started = Date.now();
    const first = await sendWebhook(cutOff.url, seed.app_id, seed.webhook_secret, purchase);
    t.is(first.status, 503, first.text);
    t.true(Date.now() - started < 30_000, "answered inside the provider's 30 s timeout");
    t.regex(first.body.detail, /kept and will be processed/);
    t.is(first.headers.get('retry-after'), '5');
    const second = await sendWebhook(cutOff.url, seed.app_id, seed.webhook_secret, refund);
    t.is(second.status, 503, second.text);
    t.deepEqual(
      (await inboxOf('inbox-1')).map((r) => r.event_type),
      ['INITIAL_PURCHASE', 'REFUND'],
      'both kept, in arrival order',
    );

    // Nobody redelivers: the drainer alone brings both in, the purchase before its refund.
    await waitFor(async () => (await inboxOf('inbox-1')).every((r) => r.status === 'delivered'), 'the drainer to hand both over', 60_000);
    const conversion = await h().db('conversions').where({ app_id: seed.app_id, app_user_id: 'inbox-1' }).first();
    t.is(conversion.status, 'refunded');
    const commissions = await h().db('commissions').where('conversion_id', conversion.id).orderBy('created_at').pluck('kind');
    t.deepEqual(commissions, ['earn', 'reversal'], 'the refund found the commission it reverses');
    t.is(await countRows(h().db('purchase_events').where({ app_id: seed.app_id, app_user_id: 'inbox-1' })), 2);
    // The provider's later redelivery (to a healthy API) answers the recorded event.
    const again = await sendWebhook(live.url, seed.app_id, seed.webhook_secret, purchase);
    t.is(again.status, 200, again.text);
    t.is(again.body.event_id, (await inboxOf('inbox-1'))[0].purchase_event_id);
  },
);

test("the agent's test-integration answers 503 with detail when Temporal is unreachable", async (t) => {
  const res = await request(cutOff.url, 'POST', `/api/agent/apps/${seed.app_id}/test-integration`, { token: seed.agent_key, body: {} });
  t.is(res.status, 503, res.text);
  t.is(typeof res.body.detail, 'string');
});

test('a redelivery racing the drainer records each event once and the ledger stays exact', async (t) => {
  t.timeout(3 * 60_000);
  const db = h().db;
  const before = await sumWalletLedger(db, seed.org_id);
  const subs = Array.from({ length: 8 }, (_, i) => subscription(`inbox-race-${i}`, seed.creator_code));
  const events: ProviderBody[][] = subs.map((sub) => [sub('initial_purchase'), sub('renewal')]);
  // Refused by the cut-off API (503), purchases first, then renewals: all kept.
  for (const k of [0, 1]) {
    const answers = await Promise.all(events.map((e) => sendWebhook(cutOff.url, seed.app_id, seed.webhook_secret, e[k])));
    t.deepEqual(
      answers.map((a) => a.status),
      events.map(() => 503),
    );
  }
  // Now the drainer (due at once) and the provider's redeliveries to the healthy API race for the same events.
  await db('purchase_inbox').where({ app_id: seed.app_id, status: 'waiting' }).update({ next_attempt_at: db.fn.now() });
  const redelivered = await Promise.all(
    events.map(async (e) => [
      await sendWebhook(live.url, seed.app_id, seed.webhook_secret, e[0]),
      await sendWebhook(live.url, seed.app_id, seed.webhook_secret, e[1]),
    ]),
  );
  t.true(
    redelivered.flat().every((a) => a.status === 200),
    JSON.stringify(redelivered.flat().map((a) => a.status)),
  );
  await waitFor(
    async () => (await countRows(db('purchase_inbox').where({ app_id: seed.app_id, status: 'waiting' }))) === 0,
    'the inbox to drain',
    60_000,
  );

  const users = subs.map((_, i) => `inbox-race-${i}`);
  t.is(
    await countRows(db('purchase_inbox').where('app_id', seed.app_id).whereRaw("event->>'appUserId' = any(?)", [users])),
    16,
    'one inbox row per event',
  );
  t.is(
    await countRows(db('purchase_events').where('app_id', seed.app_id).whereIn('app_user_id', users)),
    16,
    'one recorded event per event',
  );
  for (const [i, pair] of redelivered.entries()) {
    const recorded = await db('purchase_events')
      .where({ app_id: seed.app_id, app_user_id: users[i] })
      .orderBy('event_timestamp_ms')
      .pluck('id');
    t.deepEqual(
      pair.map((a) => a.body.event_id),
      recorded,
      'each answer names the one recorded row',
    );
  }
  t.is(
    await countRows(
      db('commissions').where('app_id', seed.app_id).whereIn('conversion_id', db('conversions').select('id').whereIn('app_user_id', users)),
    ),
    16,
  );
  t.is((await sumWalletLedger(db, seed.org_id)).reservedMicros - before.reservedMicros, 16 * RESERVE_PER_PAID_EVENT);
});

// Serial: it reserves a commission, which the ledger delta of the race test below must not see.
test.serial('an applied event marks its inbox row delivered in its own transaction (one timestamp for both)', async (t) => {
  const sub = subscription('inbox-same-tx', seed.creator_code);
  const purchase = sub('initial_purchase');
  const res = await sendWebhook(live.url, seed.app_id, seed.webhook_secret, purchase);
  t.is(res.status, 200, res.text);
  const [row] = await inboxOf('inbox-same-tx');
  const event = await h().db('purchase_events').where('id', res.body.event_id).first();
  t.is(row.status, 'delivered');
  t.is(row.purchase_event_id, event.id);
  // now() is the transaction's start time: equal only when the event's transaction wrote both.
  t.is(row.delivered_at.getTime(), event.processed_at.getTime());
});
