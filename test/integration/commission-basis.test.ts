// A campaign's commission basis (docs/purchase-pipeline.md "Commission basis"), end to end through the real pipeline:
// set through the agent API (422 naming the field for a bad value, and for an app whose own server reports its
// purchases); a provider webhook with the store's fee and tax fractions earns on EXACT proceeds; an Apple and a
// Google store-direct purchase earn on ESTIMATED proceeds (the storefront's tax, the store's fee); every commission
// shows its basis and amounts on the agent API; a refund after a basis change uses the commission's stored basis.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { signTransaction } from '../helpers/apple-signing.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  agentCall,
  newOrderId,
  reportPurchase,
  setPlaySubscription,
  signedTransaction,
  storeAccount,
  switchToStoreDirect,
  useStoreWorld,
  type StoreAccount,
} from '../helpers/store-direct.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const { h } = useSeededHarness(test);
const world = useStoreWorld(test, h);
let store: StoreAccount;

test.before(async () => {
  await world.ready();
  store = await storeAccount(h());
  await switchToStoreDirect(h(), world(), store, 'ios');
  await switchToStoreDirect(h(), world(), store, 'android');
});

const setBasis = (a: StoreAccount, basis: string) => agentCall(h(), a, 'PATCH', `/campaigns/${a.campaign_id}`, { commission_basis: basis });
const commissionsOf = async (a: StoreAccount) => {
  const res = await agentCall(h(), a, 'GET', `/campaigns/${a.campaign_id}/commissions?environment=PRODUCTION`);
  if (res.status !== 200) throw new Error(res.text);
  return res.body.commissions as any[];
};
const ofTransaction = async (a: StoreAccount, transactionId: string) =>
  (await commissionsOf(a)).filter((c) => c.transaction_id === transactionId).reverse();

test.serial('the basis is gross by default, set and read through the agent API; a bad value or an unsupported app is 422', async (t) => {
  const a = await storeAccount(h());
  t.is((await agentCall(h(), a, 'GET', `/campaigns/${a.campaign_id}`)).body.commission_basis, 'gross');
  const bad = await setBasis(a, 'net');
  t.is(bad.status, 422, bad.text);
  t.regex(bad.text, /commission_basis/);
  const created = await agentCall(h(), a, 'POST', `/apps/${a.app_id}/campaigns`, {
    name: 'On proceeds',
    commission_percentage: 20,
    commission_basis: 'proceeds',
  });
  t.is(created.status, 201, created.text);
  t.is(created.body.commission_basis, 'proceeds');
  t.is((await setBasis(a, 'proceeds')).body.commission_basis, 'proceeds');

  // An app whose server reported a purchase (no storefront, no fractions): proceeds is refused, nothing written.
  const direct = await storeAccount(h());
  const reported = await request(h().baseUrl, 'POST', '/api/webhooks/purchase', {
    token: direct.purchase_api_key,
    body: {
      transaction_id: randomUUID(),
      app_user_id: 'srv',
      product_id: 'coins',
      price: 4.99,
      currency: 'USD',
      svc_code: '',
      platform: 'ios',
    },
  });
  t.is(reported.status, 200, reported.text);
  const refused = await setBasis(direct, 'proceeds');
  t.is(refused.status, 422, refused.text);
  t.deepEqual(
    refused.body.detail.map((p: { loc: string[] }) => p.loc.at(-1)),
    ['commission_basis'],
  );
  t.is((await agentCall(h(), direct, 'GET', `/campaigns/${direct.campaign_id}`)).body.commission_basis, 'gross');
});

test.serial("a provider webhook with the store's fee and the tax earns on exact proceeds, the fractions stored", async (t) => {
  const a = await storeAccount(h());
  t.is((await setBasis(a, 'proceeds')).status, 200);
  const sub = subscription('fraction-user', a.creator_code);
  // 9.99 in Germany: 15.97 % of the price is VAT, 25.21 % the store's 30 % of the rest.
  const body = sub('initial_purchase', { price: 9.99, country_code: 'DE', tax_percentage: 0.1597, commission_percentage: 0.2521 });
  const res = await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, body);
  t.is(res.status, 200, res.text);
  const [earn] = await ofTransaction(a, body.event.transaction_id);
  t.like(earn, {
    kind: 'earn',
    basis: 'proceeds',
    basis_amounts: {
      precision: 'exact',
      gross_micros: 9_990_000,
      tax_micros: 1_595_403,
      store_fee_micros: 2_518_479,
      base_micros: 5_876_118,
    },
    revenue_micros: 9_990_000,
    commission_micros: 1_760_000, // 30 % of 5.876118, in cents (not 3.00 on the price)
    platform_fee_micros: 180_000, // 10 % of it, in cents
  });
  const event = await h().db('purchase_events').where({ app_id: a.app_id, transaction_id: body.event.transaction_id }).first();
  t.like(event, { store_fee_fraction: '0.2521', tax_fraction: '0.1597' });
});

test.serial("a provider event without the fractions is estimated: Apple's 30 %, then 15 % after a year of paid service", async (t) => {
  const a = await storeAccount(h());
  t.is((await setBasis(a, 'proceeds')).status, 200);
  const sub = subscription('second-year-user', a.creator_code);
  const DAY = 86_400_000;
  const start = Date.now() - 400 * DAY;
  const estimated = { country_code: 'US', tax_percentage: null, commission_percentage: null };
  const first = sub('initial_purchase', { ...estimated, purchased_at_ms: start, expiration_at_ms: start + 365 * DAY });
  const renewal = sub('renewal', { ...estimated, purchased_at_ms: start + 365 * DAY, expiration_at_ms: start + 395 * DAY });
  for (const body of [first, renewal]) t.is((await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, body)).status, 200);
  const fee = async (transactionId: string) => (await ofTransaction(a, transactionId))[0];
  t.like(await fee(first.event.transaction_id), {
    basis_amounts: { precision: 'estimated', gross_micros: 9_990_000, tax_micros: 0, store_fee_micros: 2_997_000, base_micros: 6_993_000 },
    commission_micros: 2_100_000,
  });
  t.like(await fee(renewal.event.transaction_id), {
    basis_amounts: { precision: 'estimated', gross_micros: 9_990_000, tax_micros: 0, store_fee_micros: 1_498_500, base_micros: 8_491_500 },
    commission_micros: 2_550_000,
  });
});

test.serial('Apple store-direct earns on estimated proceeds; a refund after the basis changed takes back the stored basis', async (t) => {
  t.is((await setBasis(store, 'proceeds')).status, 200);
  const { payload } = signedTransaction(world(), store, {
    environment: 'Production',
    type: 'Non-Consumable',
    productId: 'lifetime',
    price: 9990,
  });
  const german = { ...payload, storefront: 'DEU', storefrontId: '143443' };
  const bought = await reportPurchase(h(), store, {
    platform: 'ios',
    signed_transaction: signTransaction(world().chain, german),
    referral_code: store.creator_code,
    app_user_id: 'apple-de',
  });
  t.is(bought.status, 200, bought.text);
  const id = payload.transactionId as string;
  const proceeds = {
    precision: 'estimated',
    gross_micros: 9_990_000,
    tax_micros: 1_595_042,
    store_fee_micros: 2_518_487,
    base_micros: 5_876_471,
  };
  t.like((await ofTransaction(store, id))[0], { kind: 'earn', basis: 'proceeds', basis_amounts: proceeds, commission_micros: 1_760_000 });

  t.is((await setBasis(store, 'gross')).status, 200);
  const refunded = await reportPurchase(h(), store, {
    platform: 'ios',
    signed_transaction: signTransaction(world().chain, {
      ...german,
      revocationDate: Date.now(),
      revocationReason: 0,
      signedDate: Date.now(),
    }),
  });
  t.like(refunded.body, { event_type: 'REFUND', duplicate: false });
  const [, reversal] = await ofTransaction(store, id);
  t.like(reversal, {
    kind: 'reversal',
    basis: 'proceeds',
    commission_micros: -1_760_000,
    basis_amounts: {
      precision: 'estimated',
      gross_micros: -9_990_000,
      tax_micros: -1_595_042,
      store_fee_micros: -2_518_487,
      base_micros: -5_876_471,
    },
  });

  // Purchases after the change earn on the new basis.
  const later = signedTransaction(world(), store, {
    environment: 'Production',
    type: 'Non-Consumable',
    productId: 'lifetime',
    price: 9990,
  });
  const again = await reportPurchase(h(), store, {
    platform: 'ios',
    signed_transaction: signTransaction(world().chain, { ...later.payload, storefront: 'DEU' }),
    referral_code: store.creator_code,
    app_user_id: 'apple-de-2',
  });
  t.is(again.status, 200, again.text);
  t.like((await ofTransaction(store, later.payload.transactionId as string))[0], {
    basis: 'gross',
    basis_amounts: { precision: 'exact', gross_micros: 9_990_000, tax_micros: null, store_fee_micros: null, base_micros: 9_990_000 },
    commission_micros: 3_000_000,
  });
});

test.serial('Google store-direct: a subscription earns on estimated proceeds at the 15 % fee', async (t) => {
  t.is((await setBasis(store, 'proceeds')).status, 200);
  const token = `tok-${randomUUID()}`;
  const orderId = newOrderId();
  setPlaySubscription(world(), token, orderId, { startDaysAgo: 1 });
  Object.assign(world().google.subscriptions.get(token)!, { regionCode: 'DE' });
  const res = await reportPurchase(h(), store, {
    platform: 'android',
    purchase_token: token,
    referral_code: store.creator_code,
    app_user_id: 'play-de',
  });
  t.is(res.status, 200, res.text);
  t.like((await ofTransaction(store, orderId))[0], {
    kind: 'earn',
    store: 'PLAY_STORE',
    basis: 'proceeds',
    basis_amounts: {
      precision: 'estimated',
      gross_micros: 9_990_000,
      tax_micros: 1_595_042,
      store_fee_micros: 1_259_244,
      base_micros: 7_135_714,
    },
    commission_micros: 2_140_000,
  });

  // The creator sees each commission's basis in words on the portal.
  const email = (await h().db('creators').where('id', store.creator_id).first('email')).email as string;
  const creator = await signInCreator(h().baseUrl, h().db, email, '198.51.100.38');
  const page = await creator.browser.fetch(`${h().baseUrl}/dashboard/creator/campaigns/${store.campaign_id}`);
  t.is(page.status, 200);
  t.regex(page.text, /proceeds \(estimated\): price \$9\.99 - tax \$1\.60 - store fee \$1\.26 = base \$7\.14/);
  t.regex(page.text, /proceeds \(estimated\): price \$9\.99 - tax \$1\.60 - store fee \$2\.52 = base \$5\.88/);
  t.regex(page.text, />gross</);
});
