// Provider events that belong to no conversion workflow (spec "Events"): TEST marks the webhook connected,
// TRANSFER moves a user's attribution to the new app user id, promotional grants and unknown types are
// acknowledged and ignored. Each is recorded once however often it is delivered.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { seedApp } from '../helpers/seed.js';
import { providerEvent, sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

const send = (app: { app_id: string; webhook_secret: string }, body: unknown) =>
  sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, body);
const eventsOf = (appId: string, providerEventId: string) =>
  h().db('purchase_events').where({ app_id: appId, provider_event_id: providerEventId });
const conversionOf = (appId: string, key: string) => h().db('conversions').where({ app_id: appId, conversion_key: key }).first();

test('TEST answers {received, event_id}, marks the webhook connected and is recorded once', async (t) => {
  const app = await seedApp(h().db);
  t.is((await h().db('apps').where('id', app.app_id).first()).webhook_connected_at, null);
  const body = providerEvent('test', { id: randomUUID() });
  const res = await send(app, body);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, event_id: res.body.event_id });
  t.regex(res.body.event_id, /^pev_/);
  const connectedAt = (await h().db('apps').where('id', app.app_id).first()).webhook_connected_at;
  t.true(connectedAt instanceof Date);
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
    event_type: 'TEST',
    processing_status: 'processed',
    error: null,
    conversion_id: null,
  });

  const again = await send(app, body);
  t.deepEqual(again.body, res.body);
  t.is((await eventsOf(app.app_id, body.event.id)).length, 1);
  // TEST events carry no transaction id: the idempotency key (with NULLS NOT DISTINCT) still catches a copy
  // under a new provider id.
  const copy = await send(app, providerEvent('test', { id: randomUUID() }));
  t.is(copy.body.event_id, res.body.event_id);
  t.is((await h().db('purchase_events').where({ app_id: app.app_id, event_type: 'TEST' })).length, 1);
  t.is((await h().db('conversions').where('app_id', app.app_id)).length, 0);
});

test("TRANSFER moves the attribution: a later purchase by the new id without a code goes to the old id's creator", async (t) => {
  const app = await seedApp(h().db);
  const [oldUser, newUser] = [`old-${randomUUID()}`, `new-${randomUUID()}`];
  const first = await send(app, subscription(oldUser, app.creator_code)('initial_purchase'));
  t.falsy(first.body.error, first.text);
  t.like(await h().db('user_attributions').where({ app_id: app.app_id, app_user_id: oldUser }).first(), {
    referral_code: app.creator_code,
  });

  const transfer = providerEvent('transfer', {
    id: randomUUID(),
    transferred_from: [oldUser],
    transferred_to: [newUser],
    transaction_id: `tr-${randomUUID()}`,
    original_transaction_id: null,
    event_timestamp_ms: Date.now(),
  });
  t.false('app_user_id' in transfer.event);
  const moved = await send(app, transfer);
  t.is(moved.status, 200, moved.text);
  t.deepEqual(moved.body, { received: true, event_id: moved.body.event_id });
  t.like(await h().db('purchase_events').where('id', moved.body.event_id).first(), {
    event_type: 'TRANSFER',
    processing_status: 'processed',
    conversion_id: null,
  });
  t.like(await h().db('user_attributions').where({ app_id: app.app_id, app_user_id: newUser }).first(), {
    referral_code: app.creator_code,
    campaign_id: app.campaign_id,
    creator_id: app.creator_id,
  });
  t.is((await send(app, transfer)).body.event_id, moved.body.event_id, 'a redelivered TRANSFER is the same event');
  t.is((await eventsOf(app.app_id, transfer.event.id)).length, 1);

  const purchase = subscription(newUser, null)('initial_purchase');
  const res = await send(app, purchase);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, event_id: res.body.event_id }, 'attributed: no organic error');
  t.like(await conversionOf(app.app_id, purchase.event.original_transaction_id), {
    app_user_id: newUser,
    attributed: true,
    referral_code: app.creator_code,
    creator_id: app.creator_id,
    campaign_id: app.campaign_id,
  });
});

test('TRANSFER of a user without attribution changes nothing; the new id stays organic', async (t) => {
  const app = await seedApp(h().db);
  const [oldUser, newUser] = [`old-${randomUUID()}`, `new-${randomUUID()}`];
  const transfer = providerEvent('transfer', {
    id: randomUUID(),
    transferred_from: [oldUser],
    transferred_to: [newUser],
    transaction_id: `tr-${randomUUID()}`,
  });
  const res = await send(app, transfer);
  t.is(res.status, 200, res.text);
  t.falsy(res.body.error);
  t.is(await h().db('user_attributions').where({ app_id: app.app_id, app_user_id: newUser }).first(), undefined);
  const purchase = await send(app, subscription(newUser, null)('initial_purchase'));
  t.is(purchase.body.error, 'no referral code (organic purchase)');
});

test('a PROMOTIONAL grant is acknowledged and ignored, once', async (t) => {
  const key = `promo-${randomUUID()}`;
  const body = providerEvent(
    'promotional',
    { id: randomUUID(), transaction_id: key, original_transaction_id: key, app_user_id: `u-${randomUUID()}` },
    seed.creator_code,
  );
  const res = await send(seed, body);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, event_id: res.body.event_id });
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
    processing_status: 'ignored',
    conversion_id: null,
    attributed: false,
  });
  t.is(await conversionOf(seed.app_id, key), undefined);
  t.is((await send(seed, body)).body.event_id, res.body.event_id);
  t.is((await eventsOf(seed.app_id, body.event.id)).length, 1);
});

const OTHER_TYPES = [
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'INVOICE_ISSUANCE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'SOMETHING_THE_PROVIDER_ADDS_LATER',
];

for (const type of OTHER_TYPES) {
  test(`${type} is acknowledged and ignored: no conversion, recorded once`, async (t) => {
    const key = `other-${randomUUID()}`;
    const body = providerEvent(
      'subscription_paused',
      { type, id: randomUUID(), transaction_id: key, original_transaction_id: key, app_user_id: `u-${randomUUID()}` },
      seed.creator_code,
    );
    const res = await send(seed, body);
    t.is(res.status, 200, res.text);
    t.deepEqual(res.body, { received: true, event_id: res.body.event_id });
    t.regex(res.body.event_id, /^pev_/);
    t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
      event_type: type,
      processing_status: 'ignored',
      conversion_id: null,
      error: null,
    });
    t.is(await conversionOf(seed.app_id, key), undefined);
    const again = await send(seed, body);
    t.deepEqual(again.body, res.body);
    t.is((await eventsOf(seed.app_id, body.event.id)).length, 1);
  });
}

test('an ignored type on an existing subscription leaves its conversion as it was', async (t) => {
  const sub = subscription(`u-${randomUUID()}`, seed.creator_code);
  const initial = sub('initial_purchase');
  await send(seed, initial);
  const before = await conversionOf(seed.app_id, initial.event.original_transaction_id);
  t.truthy(before);
  const paused = await send(seed, sub('subscription_paused'));
  t.is(paused.status, 200, paused.text);
  t.like(await h().db('purchase_events').where('id', paused.body.event_id).first(), { processing_status: 'ignored', conversion_id: null });
  t.deepEqual(await conversionOf(seed.app_id, initial.event.original_transaction_id), before);
});

test('a lowercase event type is the same type', async (t) => {
  const app = await seedApp(h().db);
  const res = await send(app, providerEvent('test', { id: randomUUID(), type: 'test' }));
  t.is(res.status, 200, res.text);
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), { event_type: 'TEST' });
  t.truthy((await h().db('apps').where('id', app.app_id).first()).webhook_connected_at);
});

test('a purchase event without any transaction id is accepted with an error and recorded once', async (t) => {
  const body = providerEvent(
    'initial_purchase',
    { id: randomUUID(), transaction_id: null, original_transaction_id: null, app_user_id: `u-${randomUUID()}` },
    seed.creator_code,
  );
  const res = await send(seed, body);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, error: 'event has no transaction id', event_id: res.body.event_id });
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), { processing_status: 'error', conversion_id: null });
  t.is((await send(seed, body)).body.event_id, res.body.event_id);
});
