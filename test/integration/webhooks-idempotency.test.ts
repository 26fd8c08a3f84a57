// Redelivered provider events are recorded once (spec "Inbound webhooks": idempotent on app, event type, transaction
// id and event timestamp; "Events": redelivered events are recorded once), through the real pipeline: API ->
// update-with-start -> conversion workflow -> one transaction in PostgreSQL.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { providerEvent, sendWebhook, subscription, type ProviderBody } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

const send = (body: unknown) => sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
const withEvent = (body: ProviderBody, overrides: Record<string, unknown>): ProviderBody => ({
  ...body,
  event: { ...body.event, ...overrides },
});

/** Everything one transaction id left behind: its events, its conversion's commissions and their reservations. */
async function footprint(transactionId: string) {
  const db = h().db;
  const events = await db('purchase_events').where({ app_id: seed.app_id, transaction_id: transactionId });
  const conversions = await db('conversions').where({ app_id: seed.app_id, conversion_key: transactionId });
  const commissions = await db('commissions').whereIn(
    'conversion_id',
    conversions.map((c: { id: string }) => c.id),
  );
  const reserves = await db('wallet_ledger')
    .whereIn(
      'commission_id',
      commissions.map((c: { id: string }) => c.id),
    )
    .andWhere('entry_type', 'reserve');
  return { events, conversions, commissions, reserves };
}

// The wallet is shared by the whole file; tests that compare its totals run alone.
test.serial('a redelivered event answers the same event_id and changes nothing', async (t) => {
  const body = subscription(`idem-${randomUUID()}`, seed.creator_code)('initial_purchase');
  const first = await send(body);
  t.is(first.status, 200, first.text);
  t.deepEqual(first.body, { received: true, event_id: first.body.event_id });
  const afterFirst = await getWalletTotals(h().db, seed.org_id);
  const before = await footprint(body.event.transaction_id);
  t.is(before.events.length, 1);
  t.is(before.conversions.length, 1);
  t.is(before.commissions.length, 1);
  t.is(before.reserves.length, 1);

  for (let i = 0; i < 3; i++) {
    const again = await send(body);
    t.is(again.status, 200, again.text);
    t.deepEqual(again.body, { received: true, event_id: first.body.event_id });
  }
  const after = await footprint(body.event.transaction_id);
  t.is(after.events.length, 1);
  t.is(after.commissions.length, 1);
  t.is(after.reserves.length, 1);
  t.deepEqual(after.conversions[0], before.conversions[0], 'the conversion is untouched');
  t.deepEqual(await getWalletTotals(h().db, seed.org_id), afterFirst, 'the wallet is unchanged');
});

test.serial('the same event under another provider id (same type, transaction id, timestamp) is one event', async (t) => {
  const body = subscription(`idem-${randomUUID()}`, seed.creator_code)('initial_purchase');
  const first = await send(body);
  t.is(first.status, 200, first.text);
  const wallet = await getWalletTotals(h().db, seed.org_id);
  const again = await send(withEvent(body, { id: randomUUID() }));
  t.is(again.status, 200, again.text);
  t.is(again.body.event_id, first.body.event_id);
  const noId = await send(withEvent(body, { id: null }));
  t.is(noId.body.event_id, first.body.event_id);
  const f = await footprint(body.event.transaction_id);
  t.is(f.events.length, 1);
  t.is(f.commissions.length, 1);
  t.is(f.reserves.length, 1);
  t.deepEqual(await getWalletTotals(h().db, seed.org_id), wallet);
});

test.serial('the same provider event id redelivered with another timestamp is still one event', async (t) => {
  const body = subscription(`idem-${randomUUID()}`, seed.creator_code)('initial_purchase');
  const first = await send(body);
  t.is(first.status, 200, first.text);
  const wallet = await getWalletTotals(h().db, seed.org_id);
  const again = await send(withEvent(body, { event_timestamp_ms: body.event.event_timestamp_ms + 1234 }));
  t.is(again.status, 200, again.text);
  t.is(again.body.event_id, first.body.event_id);
  const f = await footprint(body.event.transaction_id);
  t.is(f.events.length, 1);
  t.is(f.commissions.length, 1);
  t.deepEqual(await getWalletTotals(h().db, seed.org_id), wallet);
});

test.serial('a different event of the same subscription is not mistaken for a redelivery', async (t) => {
  const sub = subscription(`idem-${randomUUID()}`, seed.creator_code);
  const initial = sub('initial_purchase');
  const first = await send(initial);
  // Same type and transaction id, a later timestamp, a new provider id: a new event (it then finds the conversion).
  const later = await send(withEvent(initial, { id: randomUUID(), event_timestamp_ms: initial.event.event_timestamp_ms + 60_000 }));
  t.is(later.status, 200, later.text);
  t.not(later.body.event_id, first.body.event_id);
  const renewal = await send(sub('renewal'));
  t.not(renewal.body.event_id, first.body.event_id);
  t.is(
    (await h().db('purchase_events').where({ app_id: seed.app_id, original_transaction_id: initial.event.original_transaction_id })).length,
    3,
  );
});

test.serial('50 concurrent deliveries of one event record it exactly once', async (t) => {
  const body = subscription(`idem-${randomUUID()}`, seed.creator_code)('initial_purchase');
  const wallet = await getWalletTotals(h().db, seed.org_id);
  const answers = await Promise.all(Array.from({ length: 50 }, () => send(body)));
  t.deepEqual(
    answers.map((a) => a.status),
    Array.from({ length: 50 }, () => 200),
    answers.find((a) => a.status !== 200)?.text,
  );
  const ids = new Set(answers.map((a) => a.body.event_id));
  t.is(ids.size, 1, [...ids].join(', '));
  t.regex([...ids][0], /^pev_/);
  t.true(answers.every((a) => a.body.received === true && a.body.error === undefined));

  const f = await footprint(body.event.transaction_id);
  t.is(f.events.length, 1);
  t.is(f.conversions.length, 1);
  t.is(f.commissions.length, 1);
  t.is(f.reserves.length, 1);
  const after = await getWalletTotals(h().db, seed.org_id);
  t.is(after.reservedMicros - wallet.reservedMicros, f.reserves[0].reserved_delta_micros);
});

test.serial('50 concurrent deliveries under different provider ids are one event too', async (t) => {
  const body = subscription(`idem-${randomUUID()}`, seed.creator_code)('initial_purchase');
  const answers = await Promise.all(Array.from({ length: 50 }, () => send(withEvent(body, { id: randomUUID() }))));
  t.true(
    answers.every((a) => a.status === 200),
    answers.find((a) => a.status !== 200)?.text,
  );
  t.is(new Set(answers.map((a) => a.body.event_id)).size, 1);
  const f = await footprint(body.event.transaction_id);
  t.is(f.events.length, 1);
  t.is(f.commissions.length, 1);
  t.is(f.reserves.length, 1);
});

test('concurrent deliveries of an event without a workflow (TEST, unknown type) record it once', async (t) => {
  for (const body of [
    providerEvent('test', { id: randomUUID(), event_timestamp_ms: Date.now() }),
    providerEvent('subscription_paused', { id: randomUUID(), type: 'MADE_UP_EVENT', transaction_id: `tx-${randomUUID()}` }),
  ]) {
    const answers = await Promise.all(Array.from({ length: 30 }, () => send(body)));
    t.true(
      answers.every((a) => a.status === 200),
      answers.find((a) => a.status !== 200)?.text,
    );
    const ids = new Set(answers.map((a) => a.body.event_id));
    t.is(ids.size, 1);
    t.is((await h().db('purchase_events').where({ app_id: seed.app_id, provider_event_id: body.event.id })).length, 1);
  }
});
