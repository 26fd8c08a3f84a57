// Edge cases of the pipeline: data the database refuses never blocks a conversion, a refund finds a one-time
// purchase by its transaction, and a refund reversal restores only once.
import test from 'ava';
import { ingest } from '../helpers/conversion-client.js';
import { countRows } from '../helpers/db.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

const send = (body: unknown) => sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);

test('an event the database refuses (past the API validation) is recorded as an error once and never blocks its conversion', async (t) => {
  // The webhook schema already refuses such values with 422; this drives the workflow directly, as a future
  // producer with weaker validation would.
  const sub = subscription('edge-bad', seed.creator_code);
  await ingest(h().temporal, h().taskQueue, seed.app_id, sub('initial_purchase'));
  const bad = sub('renewal', { product_id: 'pro\u0000monthly' }); // PostgreSQL text cannot hold NUL
  const first = await ingest(h().temporal, h().taskQueue, seed.app_id, bad);
  t.regex(first.error ?? '', /could not be processed/);
  const again = await ingest(h().temporal, h().taskQueue, seed.app_id, bad);
  t.is(again.eventId, first.eventId);
  const next = await ingest(h().temporal, h().taskQueue, seed.app_id, sub('renewal'));
  t.falsy(next.error);
  const conversion = await h().db('conversions').where({ app_id: seed.app_id, app_user_id: 'edge-bad' }).first();
  t.is(conversion.billing_cycles, 2);
  t.is(await countRows(h().db('purchase_events').where({ id: first.eventId, processing_status: 'error' })), 1);
});

test('a refund of a one-time purchase finds it by the refunded transaction id', async (t) => {
  const sub = subscription('edge-onetime', seed.creator_code);
  const purchase = sub('non_renewing_purchase', { transaction_id: 'otp-1001', original_transaction_id: 'otp-orig-1' });
  await send(purchase);
  const conversion = await h().db('conversions').where({ app_id: seed.app_id, conversion_key: 'otp-1001' }).first();
  t.is(conversion.kind, 'one_time');
  const refund = await send(sub('refund', { transaction_id: 'otp-1001', original_transaction_id: 'otp-orig-1', price: -4.99 }));
  t.is(refund.status, 200, refund.text);
  const after = await h().db('conversions').where('id', conversion.id).first();
  t.is(after.status, 'refunded');
  t.is(await countRows(h().db('commissions').where({ conversion_id: conversion.id, kind: 'reversal' })), 1);
});

test('two REFUND_REVERSED events restore the commission once', async (t) => {
  const sub = subscription('edge-restore', seed.creator_code);
  const initial = sub('initial_purchase');
  await send(initial);
  const transaction_id = initial.event.transaction_id;
  await send(sub('refund', { transaction_id }));
  await send(sub('refund_reversed', { transaction_id }));
  await send(sub('refund_reversed', { transaction_id }));
  const conversion = await h().db('conversions').where({ app_id: seed.app_id, app_user_id: 'edge-restore' }).first();
  t.is(conversion.status, 'active');
  t.is(await countRows(h().db('commissions').where({ conversion_id: conversion.id, kind: 'earn' })), 2, 'the original and one restoration');
});
