// The proof from outside (issue 12): an agent switches iOS and Android to store-direct through the agent API
// (credential upload through the signed link, the green-check workflow against the stubs, activation); the app then
// reports a signed sandbox and a signed production transaction, the same production transaction re-signed (a
// duplicate), a renewal of it, and an Android one-time purchase in EUR bought on a Saturday (converted at Friday's
// ECB rate). Checked from the outside: the answers, recent-conversions, the conversion's billing cycles, the
// commissions in USD, the ledger to the micro-dollar, and that the sandbox purchase moved no money.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { addDays, utcDay } from '../../lib/fx.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  ANSWER_KEYS,
  agentCall,
  signedTransaction,
  useStoreWorld,
  storeAccount,
  switchToStoreDirect,
  type StoreAccount,
} from '../helpers/store-direct.js';
import { signTransaction } from '../helpers/apple-signing.js';

const { h } = useSeededHarness(test);
const world = useStoreWorld(test, h);

const DAY = 86_400_000;

/** The latest Saturday strictly before today (UTC). */
function lastSaturday(): string {
  const today = new Date();
  const back = (today.getUTCDay() - 6 + 7) % 7 || 7;
  return utcDay(today.getTime() - back * DAY);
}

test('an app goes store-direct on both platforms and its purchases are verified, converted and counted exactly once', async (t) => {
  const a: StoreAccount = await storeAccount(h(), { walletUsd: 1000 });
  const sdk = (path: string, body?: unknown) =>
    request(h().baseUrl, body === undefined ? 'GET' : 'POST', `/api/sdk${path}`, { token: a.sdk_key, body });

  // -- the agent switches both platforms -------------------------------------------------------------------------
  const ios = await switchToStoreDirect(h(), world(), a, 'ios');
  t.like(ios.check, { platform: 'ios', status: 'ok', passed: true, retryable: false, workflow_id: `credential-check/${a.app_id}/ios` });
  t.deepEqual(ios.activation, { platform: 'ios', store_direct: true });
  const android = await switchToStoreDirect(h(), world(), a, 'android');
  t.like(android.check, { platform: 'android', status: 'ok', passed: true, workflow_id: `credential-check/${a.app_id}/android` });
  const status = await agentCall(h(), a, 'GET', `/apps/${a.app_id}/validation-status`);
  t.like(status.body.platforms, {
    ios: { validation_path: 'store-direct', provider: 'app_store', ready: true, store_credential: { passed: true } },
    android: { validation_path: 'store-direct', provider: 'google_play', ready: true, store_credential: { passed: true } },
  });
  for (const [platform, expected] of [
    ['ios', true],
    ['android', true],
    ['web', false],
  ] as const) {
    const init = await sdk('/init', { app_version: '1.0', sdk_version: '1.6.1', platform });
    t.is(init.body.store_direct, expected, platform);
  }

  // -- iOS: a signed sandbox purchase (a tester) -----------------------------------------------------------------
  const sandbox = signedTransaction(world(), a, { environment: 'Sandbox', price: 9990, currency: 'USD' });
  const sandboxAnswer = await sdk('/purchase', {
    platform: 'ios',
    signed_transaction: sandbox.jws,
    referral_code: a.creator_code,
    app_user_id: 'tester',
  });
  t.is(sandboxAnswer.status, 200, sandboxAnswer.text);
  t.like(sandboxAnswer.body, {
    success: true,
    validated: 'app_store',
    environment: 'SANDBOX',
    event_type: 'INITIAL_PURCHASE',
    duplicate: false,
    recorded: true,
    result: { processed: true },
  });

  // -- iOS: a production subscription, the same transaction re-signed, then its renewal -----------------------
  const originalId = String(2_000_000_000_000_000 + Math.floor(Math.random() * 1e9));
  const firstDate = Date.now() - 31 * DAY;
  const production = signedTransaction(world(), a, {
    environment: 'Production',
    transactionId: originalId,
    purchaseDate: firstDate,
    price: 9990,
    currency: 'USD',
  });
  const bought = await sdk('/purchase', {
    platform: 'ios',
    signedTransaction: production.jws,
    referralCode: a.creator_code,
    appUserId: 'alice',
  });
  t.is(bought.status, 200, bought.text);
  t.deepEqual(Object.keys(bought.body).sort(), ANSWER_KEYS);
  t.deepEqual(bought.body, {
    success: true,
    validated: 'app_store',
    environment: 'PRODUCTION',
    event_type: 'INITIAL_PURCHASE',
    duplicate: false,
    recorded: true,
    result: { processed: true, event_id: bought.body.result.event_id },
  });
  const resigned = signTransaction(world().chain, { ...production.payload, signedDate: Date.now() });
  t.not(resigned, production.jws);
  const repeat = await sdk('/purchase', { platform: 'ios', signed_transaction: resigned, app_user_id: 'alice' });
  t.deepEqual(repeat.body, { ...bought.body, duplicate: true });

  const renewal = signedTransaction(world(), a, {
    environment: 'Production',
    transactionId: String(Number(originalId) + 1),
    originalTransactionId: originalId,
    purchaseDate: Date.now() - DAY,
    price: 9990,
    currency: 'USD',
  });
  const renewed = await sdk('/purchase', { platform: 'ios', signed_transaction: renewal.jws, app_user_id: 'alice' });
  t.is(renewed.status, 200, renewed.text);
  t.like(renewed.body, { environment: 'PRODUCTION', event_type: 'RENEWAL', duplicate: false, result: { processed: true } });

  // -- Android: a one-time purchase in EUR on a Saturday: Friday's rate ---------------------------------------
  const saturday = lastSaturday();
  const friday = addDays(saturday, -1);
  world().ecb.days.set(addDays(saturday, -2), { USD: '1.0700', JPY: '160.00' });
  world().ecb.days.set(friday, { USD: '1.0823', JPY: '161.00' });
  if (addDays(saturday, 2) <= utcDay(Date.now())) world().ecb.days.set(addDays(saturday, 2), { USD: '1.0999', JPY: '162.00' });
  const token = `play-${randomUUID()}`;
  const orderId = `GPA.3345-${Math.floor(Math.random() * 1e4)}-5678-90123`;
  world().google.products.set(`coins_500/${token}`, {
    purchaseTimeMillis: String(Date.parse(`${saturday}T14:30:00Z`)),
    purchaseState: 0,
    consumptionState: 0,
    developerPayload: '',
    orderId,
    acknowledgementState: 1,
    productId: 'coins_500',
    quantity: 1,
    regionCode: 'DE',
  });
  const eur = await sdk('/purchase', {
    platform: 'android',
    purchaseToken: token,
    productId: 'coins_500',
    price: 4.99,
    currency: 'EUR',
    referralCode: a.creator_code,
    appUserId: 'bob',
  });
  t.is(eur.status, 200, eur.text);
  t.deepEqual(eur.body, {
    success: true,
    validated: 'google_play',
    environment: 'PRODUCTION',
    event_type: 'NON_RENEWING_PURCHASE',
    duplicate: false,
    recorded: true,
    result: { processed: true, event_id: eur.body.result.event_id },
  });
  const eurEvent = await h().db('purchase_events').where('id', eur.body.result.event_id).first();
  // 4.99 EUR x 1.0823 USD/EUR = 5.400677 USD: the rate, its date and its source are stored with the purchase.
  t.like(eurEvent, {
    transaction_id: orderId,
    currency: 'EUR',
    price_in_purchased_currency: '4.99',
    price_usd_micros: 5_400_677,
    fx_rate: '1.0823',
    fx_rate_date: friday,
    fx_source: world().ecb.url,
    environment: 'PRODUCTION',
    source: 'store_direct',
    store: 'PLAY_STORE',
  });

  // -- what the app and the agent see ---------------------------------------------------------------------------
  const alice = await sdk('/recent-conversions?app_user_id=alice');
  t.is(alice.status, 200, alice.text);
  t.like(alice.body, { app_user_id: 'alice', count: 2, attributed_count: 2 });
  t.deepEqual(
    alice.body.conversions.map((c: any) => [c.event_type, c.environment, c.store, c.attributed, c.referral_code, c.status]),
    [
      ['RENEWAL', 'PRODUCTION', 'APP_STORE', true, a.creator_code, 'active'],
      ['INITIAL_PURCHASE', 'PRODUCTION', 'APP_STORE', true, a.creator_code, 'active'],
    ],
  );
  t.false(JSON.stringify(alice.body).includes('price'));
  const tester = await sdk('/recent-conversions?app_user_id=tester');
  t.like(tester.body.conversions[0], { event_type: 'INITIAL_PURCHASE', environment: 'SANDBOX', is_test: true, attributed: true });
  const bob = await sdk('/recent-conversions?app_user_id=bob');
  t.like(bob.body.conversions[0], {
    event_type: 'NON_RENEWING_PURCHASE',
    store: 'PLAY_STORE',
    environment: 'PRODUCTION',
    attributed: true,
  });

  const subscription = await h().db('conversions').where({ app_id: a.app_id, conversion_key: originalId }).first();
  t.like(subscription, {
    kind: 'subscription',
    status: 'active',
    billing_cycles: 2,
    attributed: true,
    referral_code: a.creator_code,
    environment: 'PRODUCTION',
    app_user_id: 'alice',
  });
  t.is(subscription.workflow_id, `conversion/${a.app_id}/${originalId}`);
  t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: orderId }).first(), {
    kind: 'one_time',
    billing_cycles: 1,
    app_user_id: 'bob',
  });

  // -- money: commissions in USD, the ledger to the micro-dollar, nothing for the sandbox -------------------------
  const commissions = await h()
    .db('commissions as c')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where('c.app_id', a.app_id)
    .orderBy('p.received_at')
    .select(
      'p.transaction_id',
      'c.environment',
      'c.status',
      'c.revenue_usd_micros',
      'c.commission_micros',
      'c.platform_fee_micros',
      'c.id',
    );
  t.deepEqual(
    commissions.map((c) => [c.transaction_id, c.environment, c.status, c.revenue_usd_micros, c.commission_micros, c.platform_fee_micros]),
    [
      [sandbox.payload.transactionId, 'SANDBOX', 'simulated', 9_990_000, 3_000_000, 300_000],
      [originalId, 'PRODUCTION', 'reserved', 9_990_000, 3_000_000, 300_000],
      [String(Number(originalId) + 1), 'PRODUCTION', 'reserved', 9_990_000, 3_000_000, 300_000],
      // 30 % of 5.400677 USD = 1.6202031 -> 1.62 (whole cents); fee 10 % of that = 0.162 -> 0.16.
      [orderId, 'PRODUCTION', 'reserved', 5_400_677, 1_620_000, 160_000],
    ],
  );
  const ledger = await h()
    .db('wallet_ledger')
    .where('org_id', a.org_id)
    .orderBy('id')
    .select('entry_type', 'balance_delta_micros', 'reserved_delta_micros', 'commission_id');
  t.deepEqual(
    ledger.map((e) => [e.entry_type, e.balance_delta_micros, e.reserved_delta_micros]),
    [
      ['topup', 1_000_000_000, 0],
      ['reserve', 0, 3_300_000],
      ['reserve', 0, 3_300_000],
      ['reserve', 0, 1_780_000],
    ],
  );
  t.false(
    ledger.some((e) => e.commission_id === commissions[0]!.id),
    'the sandbox purchase moved no money',
  );
  const wallet = await agentCall(h(), a, 'GET', `/wallet?org_id=${a.org_id}`);
  t.is(wallet.status, 200, wallet.text);
  t.like(wallet.body, { balance_micros: 1_000_000_000, reserved_micros: 8_380_000, safe_available_micros: 1_000_000_000 - 8_380_000 });

  // -- every report went through its own workflow; each proof is kept with its outcome --------------------------
  const proofs = await h().db('store_purchase_proofs').where('app_id', a.app_id).orderBy('created_at');
  t.is(proofs.length, 4);
  t.true(proofs.every((p) => p.status === 'verified' && /^store-purchase\//.test(p.workflow_id)));
});
