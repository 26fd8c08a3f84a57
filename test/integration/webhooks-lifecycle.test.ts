// The conversion lifecycle through the real pipeline: provider webhook -> API -> update-with-start -> conversion
// workflow -> activity -> PostgreSQL, one event type at a time (spec "Events").
import test from 'ava';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

const send = (body: unknown) => sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
const conversionOf = (user: string) => h().db('conversions').where({ app_id: seed.app_id, app_user_id: user }).first();
const commissionsOf = (conversionId: string) => h().db('commissions').where('conversion_id', conversionId).orderBy('created_at');

test.serial('a paid initial purchase with a creator code creates an attributed conversion, earns and reserves', async (t) => {
  const sub = subscription('life-1', seed.creator_code);
  const before = await getWalletTotals(h().db, seed.org_id);
  const res = await send(sub('initial_purchase'));
  t.is(res.status, 200, res.text);
  t.deepEqual(Object.keys(res.body).sort(), ['event_id', 'received']);
  t.true(res.body.received);
  t.regex(res.body.event_id, /^pev_/);
  const c = await conversionOf('life-1');
  t.like(c, {
    attributed: true,
    referral_code: seed.creator_code,
    campaign_id: seed.campaign_id,
    status: 'active',
    billing_cycles: 1,
    kind: 'subscription',
  });
  const [earn] = await commissionsOf(c.id);
  t.like(earn, {
    kind: 'earn',
    status: 'reserved',
    revenue_usd_micros: 9_990_000,
    commission_micros: 3_000_000,
    platform_fee_micros: 300_000,
  });
  const after = await getWalletTotals(h().db, seed.org_id);
  t.is(after.reservedMicros - before.reservedMicros, 3_300_000);
  t.is(after.balanceMicros, before.balanceMicros);

  const renewal = await send(sub('renewal'));
  t.falsy(renewal.body.error);
  const renewed = await conversionOf('life-1');
  t.is(renewed.billing_cycles, 2);
  t.is((await commissionsOf(c.id)).length, 2);

  const refund = await send(
    sub('refund', {
      transaction_id: renewal.body.event_id
        ? (await h().db('purchase_events').where('id', renewal.body.event_id).first()).transaction_id
        : undefined,
    }),
  );
  t.is(refund.status, 200);
  const all = await commissionsOf(c.id);
  t.is(all.length, 3);
  t.is(all.filter((x: { status: string }) => x.status === 'reversed').length, 2);
  const final = await getWalletTotals(h().db, seed.org_id);
  t.is(final.reservedMicros - before.reservedMicros, 3_300_000, 'only the refunded renewal was released');
  t.is((await conversionOf('life-1')).status, 'refunded');
});
