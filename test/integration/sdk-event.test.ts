// POST /api/sdk/event: tracked once per event_id, milestones once per user and property set, identical id-less
// events within 60 s dropped; never a conversion.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { countRows } from '../helpers/db.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
const post = (body: unknown) => sdkClient(h().baseUrl, seed.sdk_key).post('/event', body);

test('an event is tracked and its event_id returned', async (t) => {
  const res = await post({
    event_type: 'paywall_viewed',
    app_user_id: 'u1',
    properties: { screen: 'home' },
    referral_code: seed.creator_code.toLowerCase(),
    event_id: 'evt-1',
    platform: 'ios',
  });
  t.is(res.status, 200);
  t.deepEqual(res.body, { tracked: true, event_id: 'evt-1' });
  const row = await h().db('sdk_events').where({ app_id: seed.app_id, event_id: 'evt-1' }).first();
  t.like(row, { event_type: 'paywall_viewed', app_user_id: 'u1', referral_code: seed.creator_code, platform: 'ios' });
  t.deepEqual(row.properties, { screen: 'home' });
});

test('camelCase aliases are accepted; without event_id one is generated', async (t) => {
  const res = await post({ eventType: 'onboarding_done', appUserId: 'u-camel', referralCode: null });
  t.is(res.status, 200);
  t.regex(res.body.event_id, /^[0-9a-f-]{36}$/);
  t.is(await countRows(h().db('sdk_events').where({ app_id: seed.app_id, app_user_id: 'u-camel' })), 1);
});

test('the same event_id is dropped as a duplicate', async (t) => {
  const id = randomUUID();
  await post({ event_type: 'a', app_user_id: 'u2', event_id: id });
  const again = await post({ event_type: 'b', app_user_id: 'u2', event_id: id });
  t.deepEqual(again.body, { tracked: true, event_id: id, duplicate: true, dedup_reason: 'event_id' });
  t.is(await countRows(h().db('sdk_events').where({ app_id: seed.app_id, event_id: id })), 1);
});

test('trial_started, subscription_purchased, subscription_renewed are kept once per user and property set', async (t) => {
  for (const type of ['trial_started', 'subscription_purchased', 'subscription_renewed']) {
    const first = await post({ event_type: type, app_user_id: 'u3', properties: { product: 'pro', period: 'm' }, event_id: randomUUID() });
    t.false('duplicate' in first.body);
    const again = await post({ event_type: type, app_user_id: 'u3', properties: { period: 'm', product: 'pro' }, event_id: randomUUID() });
    t.like(again.body, { tracked: true, duplicate: true, dedup_reason: 'singleton', event_id: first.body.event_id });
    const otherProps = await post({ event_type: type, app_user_id: 'u3', properties: { product: 'max' }, event_id: randomUUID() });
    t.false('duplicate' in otherProps.body);
  }
});

test('an identical event without event_id within 60 s is dropped, also when sent concurrently', async (t) => {
  const body = { event_type: 'button_tapped', app_user_id: 'u4', properties: { id: 'buy' } };
  const results = await Promise.all(Array.from({ length: 5 }, () => post(body)));
  t.is(results.filter((r) => !r.body.duplicate).length, 1);
  t.true(results.filter((r) => r.body.duplicate).every((r) => r.body.dedup_reason === 'identical_within_60s'));
  t.is(await countRows(h().db('sdk_events').where({ app_id: seed.app_id, app_user_id: 'u4' })), 1);
  await h()
    .db('sdk_events')
    .where({ app_id: seed.app_id, app_user_id: 'u4' })
    .update({ created_at: h().db.raw("now() - interval '61 seconds'") });
  const later = await post(body);
  t.false('duplicate' in later.body);
});

test('events never create conversions or commissions', async (t) => {
  await post({ event_type: 'subscription_purchased', app_user_id: 'u5', referral_code: seed.creator_code, properties: { price: 9.99 } });
  t.is(await countRows(h().db('conversions').where({ app_id: seed.app_id })), 0);
  t.is(await countRows(h().db('commissions').where({ app_id: seed.app_id })), 0);
});

test('missing fields are 422 listing each', async (t) => {
  const res = await post({ properties: 'not-an-object' });
  t.is(res.status, 422);
  const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort();
  t.deepEqual(locs, ['body.app_user_id', 'body.event_type', 'body.properties']);
});
