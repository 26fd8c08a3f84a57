// The answers of POST /api/webhooks/subprovider/{app_id} (spec "Inbound webhooks" responses, "Errors" processing
// texts): 200 `{received, event_id}` when processed, 200 `{received, error, event_id}` when accepted but not
// (fully) processed, with the spec's texts.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { reserveByApprovedAward } from '../helpers/conversions.js';
import { request } from '../helpers/http.js';
import { seedApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

const send = (app: { app_id: string; webhook_secret: string }, body: unknown) =>
  sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, body);
const user = () => `resp-${randomUUID()}`;

test('a processed purchase answers exactly {received: true, event_id}', async (t) => {
  const res = await send(seed, subscription(user(), seed.creator_code)('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.regex(res.headers.get('content-type') ?? '', /application\/json/);
  t.deepEqual(Object.keys(res.body).sort(), ['event_id', 'received']);
  t.is(res.body.received, true);
  t.regex(res.body.event_id, /^pev_/);
});

test('an organic purchase (no code, no attributed click) answers the organic error with its event_id', async (t) => {
  const u = user();
  const res = await send(seed, subscription(u, null)('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, error: 'no referral code (organic purchase)', event_id: res.body.event_id });
  t.regex(res.body.event_id, /^pev_/);
  const conversion = await h().db('conversions').where({ app_id: seed.app_id, app_user_id: u }).first();
  t.like(conversion, { attributed: false, referral_code: null });
  t.is((await h().db('commissions').where('conversion_id', conversion.id)).length, 0);
  const event = await h().db('purchase_events').where('id', res.body.event_id).first();
  t.like(event, { organic: true, attributed: false, error: 'no referral code (organic purchase)' });

  // An empty svc_code attribute is no code either.
  const empty = await send(seed, subscription(user(), '')('initial_purchase'));
  t.is(empty.body.error, 'no referral code (organic purchase)');
});

test('an unknown code answers "affiliate not found for code ..."', async (t) => {
  const res = await send(seed, subscription(user(), 'NOSUCHCODE')('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.deepEqual(Object.keys(res.body).sort(), ['error', 'event_id', 'received']);
  t.true(res.body.received);
  t.true(res.body.error.startsWith('affiliate not found for code'), res.body.error);
  t.regex(res.body.event_id, /^pev_/);
  const event = await h().db('purchase_events').where('id', res.body.event_id).first();
  t.like(event, { attributed: false, processing_status: 'error' });
});

test('a code whose campaign is paused answers "affiliate not found for code ..."', async (t) => {
  const app = await seedApp(h().db);
  await h().db('campaigns').where('id', app.campaign_id).update({ status: 'paused' });
  const res = await send(app, subscription(user(), app.creator_code)('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.true(res.body.error?.startsWith('affiliate not found for code'), res.text);
});

test('an empty wallet answers "insufficient wallet balance" and reserves nothing', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const res = await send(app, subscription(user(), app.creator_code)('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, error: 'insufficient wallet balance', event_id: res.body.event_id });
  t.regex(res.body.event_id, /^pev_/);
  t.is((await h().db('wallet_ledger').where({ org_id: app.org_id, entry_type: 'reserve' })).length, 0);
});

test('a drained wallet (everything reserved) answers "insufficient wallet balance"', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 50 });
  await reserveByApprovedAward(h().db, app, 50_000_000);
  const res = await send(app, subscription(user(), app.creator_code)('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.is(res.body.error, 'insufficient wallet balance');

  // The redelivery answers the same error and event_id.
  const first = res.body.event_id;
  const again = await send(app, (await h().db('purchase_events').where('id', first).first()).raw);
  t.deepEqual(again.body, { received: true, error: 'insufficient wallet balance', event_id: first });
});

// Values the event log cannot store must be refused up front: accepted, a conversion event would fail its
// activity on every retry (the caller gets 503 after 25 s, and every later event of that conversion waits behind
// it); an event without a workflow would be a 500.
const unstorable: [string, Record<string, unknown>, (string | number)[]][] = [
  ['a price past safe micro-USD', { price: 1e20 }, ['body', 'event', 'price']],
  ['a fractional event timestamp', { event_timestamp_ms: 1.5 }, ['body', 'event', 'event_timestamp_ms']],
  ['an event timestamp past any date', { event_timestamp_ms: 1e30 }, ['body', 'event', 'event_timestamp_ms']],
  ['a purchase time past any date', { purchased_at_ms: 1e20 }, ['body', 'event', 'purchased_at_ms']],
  ['a currency that is not three letters', { currency: 'EURO' }, ['body', 'event', 'currency']],
  ['a takehome share above 1', { takehome_percentage: 1e40 }, ['body', 'event', 'takehome_percentage']],
  [
    'a transaction id too long for a workflow id',
    { original_transaction_id: 'x'.repeat(2000) },
    ['body', 'event', 'original_transaction_id'],
  ],
  ['a NUL character in a field we read', { app_user_id: 'a\u0000b' }, ['body', 'event', 'app_user_id']],
  ['a NUL character in a field we only keep', { country_code: 'U\u0000S' }, ['body', 'event', 'country_code']],
  ['JSON nested deeper than any provider event', { extra: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) }, ['body', 'event', 'extra']],
];

for (const [label, overrides, loc] of unstorable) {
  test(`${label} is 422 naming the field, on conversion and standalone events alike`, async (t) => {
    for (const body of [
      subscription(user(), seed.creator_code)('initial_purchase', overrides),
      subscription(user(), null)('subscription_paused', overrides),
    ]) {
      const res = await send(seed, body);
      t.is(res.status, 422, `${body.event.type}: ${res.text.slice(0, 300)}`);
      const problem = res.body.detail?.[0];
      t.deepEqual(problem?.loc.slice(0, loc.length), loc, res.text.slice(0, 300));
      t.is((await h().db('purchase_events').where({ app_id: seed.app_id, provider_event_id: body.event.id })).length, 0);
    }
  });
}

test('JSON nested too deep to serialise is 422, not a 500', async (t) => {
  // 5,000 levels parse fine but overflow the stack of JSON.stringify (the event log's jsonb, Temporal's payloads).
  const body = JSON.stringify(subscription(user(), null)('subscription_paused', { extra: 'DEEP' })).replace(
    '"DEEP"',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
  );
  const res = await request(h().baseUrl, 'POST', `/api/webhooks/subprovider/${seed.app_id}`, {
    rawBody: body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${seed.webhook_secret}` },
  });
  t.is(res.status, 422, res.text.slice(0, 300));
  t.deepEqual(res.body.detail[0].loc.slice(0, 3), ['body', 'event', 'extra']);
});

// Local prices of IDR, VND or KRW yearly plans run into the millions (migration 0012: unbounded numeric).
test('an event priced at 1,500,000 in its local currency is accepted and stored exactly', async (t) => {
  const body = subscription(user(), seed.creator_code)('initial_purchase', {
    currency: 'IDR',
    price: 94.5,
    price_in_purchased_currency: 1_500_000,
    takehome_percentage: 0.7,
  });
  const res = await send(seed, body);
  t.is(res.status, 200, res.text);
  t.falsy(res.body.error);
  const row = await h().db('purchase_events').where('id', res.body.event_id).first();
  t.is(row.price_in_purchased_currency, '1500000');
  t.is(row.price_usd_micros, 94_500_000);
});
