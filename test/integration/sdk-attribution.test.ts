// GET /api/sdk/attribution and GET /api/sdk/recent-conversions read what the purchase pipeline recorded.
import test from 'ava';
import { sdkClient } from '../helpers/sdk.js';
import { seedAccount } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

const send = (body: unknown) => sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
const sdk = () => sdkClient(h().baseUrl, seed.sdk_key);

test('attribution is false until an attributed purchase exists, then names code, campaign, time and method', async (t) => {
  const before = await sdk().get('/attribution?app_user_id=attr-1');
  t.is(before.status, 200);
  t.false(before.body.attributed);
  t.is(typeof before.body.message, 'string');
  const sub = subscription('attr-1', seed.creator_code);
  await send(sub('initial_purchase'));
  const after = await sdk().get('/attribution?app_user_id=attr-1');
  t.like(after.body, {
    attributed: true,
    referral_code: seed.creator_code,
    campaign: { id: seed.campaign_id, name: 'Launch campaign' },
    attribution_method: 'purchase_code',
  });
  t.false(Number.isNaN(Date.parse(after.body.attribution_timestamp)));
});

test('an organic purchase does not make the user attributed', async (t) => {
  const sub = subscription('attr-organic', null);
  await send(sub('initial_purchase'));
  t.false((await sdk().get('/attribution?app_user_id=attr-organic')).body.attributed);
});

test('recent-conversions: newest first, the spec fields (and how it was attributed) only, no amounts or creator names', async (t) => {
  const sub = subscription('recent-1', seed.creator_code);
  await send(sub('initial_purchase'));
  await send(sub('renewal'));
  await send(sub('cancellation'));
  const res = await sdk().get('/recent-conversions?app_user_id=recent-1');
  t.is(res.status, 200);
  t.like(res.body, { app_user_id: 'recent-1', count: 3, attributed_count: 3 });
  t.deepEqual(
    res.body.conversions.map((c: { event_type: string }) => c.event_type),
    ['CANCELLATION', 'RENEWAL', 'INITIAL_PURCHASE'],
  );
  for (const c of res.body.conversions) {
    t.deepEqual(Object.keys(c).sort(), [
      'attributed',
      'attribution_method',
      'environment',
      'event_timestamp',
      'event_type',
      'is_test',
      'product_id',
      'referral_code',
      'status',
      'store',
    ]);
    t.like(c, {
      environment: 'PRODUCTION',
      is_test: false,
      attributed: true,
      referral_code: seed.creator_code,
      attribution_method: 'purchase_code',
      status: 'cancelled',
      store: 'APP_STORE',
    });
  }
  t.false(JSON.stringify(res.body).includes('Demo Creator'));
  t.false(/price|commission|micros/.test(JSON.stringify(res.body)));
});

test('recent-conversions: limit 1 to 50, default 10; sandbox events are marked as tests', async (t) => {
  const sub = subscription('recent-many', seed.creator_code);
  await send(sub('sandbox_initial_purchase'));
  for (let i = 0; i < 11; i++) await send(sub('renewal', { environment: 'SANDBOX' }));
  const all = await sdk().get('/recent-conversions?app_user_id=recent-many');
  t.is(all.body.count, 10);
  t.true(all.body.conversions.every((c: { is_test: boolean; environment: string }) => c.is_test && c.environment === 'SANDBOX'));
  t.is((await sdk().get('/recent-conversions?app_user_id=recent-many&limit=2')).body.count, 2);
  t.is((await sdk().get('/recent-conversions?app_user_id=recent-many&limit=50')).body.count, 12);
  for (const bad of ['0', '51', 'ten']) {
    const res = await sdk().get(`/recent-conversions?app_user_id=recent-many&limit=${bad}`);
    t.is(res.status, 422, bad);
    t.deepEqual(res.body.detail[0].loc, ['query', 'limit']);
  }
  t.is((await sdk().get('/recent-conversions')).status, 400);
  t.is((await sdk().get('/attribution?app_user_id=')).status, 400);
});

test('recent-conversions: environment is only SANDBOX or PRODUCTION; XCODE and LOCAL_TESTING read as SANDBOX tests', async (t) => {
  const sub = subscription('recent-envs', seed.creator_code);
  await send(sub('initial_purchase', { environment: 'XCODE' }));
  await send(sub('renewal', { environment: 'LOCAL_TESTING' }));
  await send(sub('renewal', { environment: 'SANDBOX' }));
  await send(sub('renewal'));
  const stored = await h()
    .db('purchase_events')
    .where({ app_id: seed.app_id, app_user_id: 'recent-envs' })
    .orderBy('event_timestamp_ms')
    .pluck('environment');
  t.deepEqual(stored, ['XCODE', 'LOCAL_TESTING', 'SANDBOX', 'PRODUCTION'], 'the store environment is kept as received');
  const res = await sdk().get('/recent-conversions?app_user_id=recent-envs');
  t.deepEqual(
    res.body.conversions.map((c: { environment: string; is_test: boolean }) => [c.environment, c.is_test]),
    [
      ['PRODUCTION', false],
      ['SANDBOX', true],
      ['SANDBOX', true],
      ['SANDBOX', true],
    ],
  );
});

test('another app cannot read this app users', async (t) => {
  const other = await seedAccount(h().db);
  const sub = subscription('attr-private', seed.creator_code);
  await send(sub('initial_purchase'));
  t.false((await sdkClient(h().baseUrl, other.sdk_key).get('/attribution?app_user_id=attr-private')).body.attributed);
  t.is((await sdkClient(h().baseUrl, other.sdk_key).get('/recent-conversions?app_user_id=attr-private')).body.count, 0);
});
