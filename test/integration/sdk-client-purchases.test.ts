// The React Native core of the SDK package as a store-direct app against the real service (Apple's API, Google and
// the ECB are the stubs of test/stubs): rules 1 (auto capture), 7 (stored code on the first transaction), 8
// (sent-set), 12 (back-sync), 3 (reportPurchase throws; 503 retryable) and a pending purchase that survives a
// killed process.
import test from 'ava';
import { accountToken, SvcError, type PurchaseReport } from '@svc/sdk/react-native';
import { seedApp } from '../helpers/seed.js';
import { useHarness } from '../helpers/harness.js';
import { nativeApp, freshIp } from '../helpers/sdk-app.js';
import {
  ANSWER_KEYS,
  signedTransaction,
  useStoreWorld,
  storeAccount,
  switchToStoreDirect,
  type StoreAccount,
} from '../helpers/store-direct.js';

const h = useHarness(test, { env: { TRUST_PROXY: 'true' } });
const world = useStoreWorld(test, h);
let shop: StoreAccount;

test.before(async () => {
  await world.ready();
  shop = await storeAccount(h());
  await switchToStoreDirect(h(), world(), shop, 'ios');
});

/** The host's store library: the purchases it knows, and a listener the SDK may subscribe to. */
function storeLibrary(purchases: PurchaseReport[] = []) {
  const lib = {
    purchases,
    subscribed: 0,
    listener: null as ((p: PurchaseReport) => void) | null,
    getPurchases: async () => lib.purchases,
    onPurchase: (l: (p: PurchaseReport) => void) => {
      lib.subscribed += 1;
      lib.listener = l;
      return () => {
        lib.listener = null;
      };
    },
  };
  return lib;
}

const ios = (jws: string): PurchaseReport => ({ platform: 'ios', signedTransaction: jws });

async function started(opts: { apiKey?: string; autoCapture?: boolean; lib?: ReturnType<typeof storeLibrary> } = {}) {
  const app = nativeApp(freshIp());
  const lib = opts.lib ?? storeLibrary();
  const init = await app.client.initialize({
    apiKey: opts.apiKey ?? shop.sdk_key,
    baseUrl: `${h().baseUrl}/api`,
    storage: app.store,
    platform: 'ios',
    purchaseSource: lib,
    ...(opts.autoCapture === undefined ? {} : { autoCapture: opts.autoCapture }),
  });
  return { ...app, lib, init };
}

const reported = (store: Map<string, string>) => JSON.parse(store.get('@svc/reported_purchases') ?? '[]') as string[];

test('rule 1: auto capture starts only on a store-direct platform and only when autoCapture is not false', async (t) => {
  const provider = await seedApp(h().db);
  const onProviderPath = await started({ apiKey: provider.sdk_key });
  t.false(onProviderPath.init.store_direct);
  t.is(onProviderPath.lib.subscribed, 0, 'never on a non-store-direct app');
  t.deepEqual(await onProviderPath.client.syncPurchases(), { fetched: 0, sent: 0, failed: 0 });

  const manual = await started({ autoCapture: false });
  t.true(manual.init.store_direct);
  t.is(manual.lib.subscribed, 0, 'the host reports itself');

  const auto = await started();
  t.is(auto.lib.subscribed, 1);
  const { jws } = signedTransaction(world(), shop, { environment: 'Sandbox' });
  auto.lib.listener!(ios(jws));
  for (let i = 0; i < 50 && reported(auto.store.map).length === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
  t.is(reported(auto.store.map).length, 1, 'the captured purchase was reported');
  t.like(auto.net.calls.find((c) => c.path === '/sdk/purchase')!.body, { platform: 'ios', signedTransaction: jws });
});

test('rules 7, 8, 12, 14: the stored code goes with the first transaction only; the sent-set survives clearAttribution', async (t) => {
  const app = await started({ autoCapture: false });
  const user = `buyer-${freshIp()}`;
  await app.client.identify(user);
  t.true((await app.client.applyCode(shop.creator_code.toLowerCase())).applied);

  const first = signedTransaction(world(), shop, { environment: 'Production' });
  const answer = await app.client.reportPurchase(ios(first.jws));
  t.deepEqual(Object.keys(answer).sort(), ANSWER_KEYS, 'snake_case purchase result');
  t.like(answer, {
    success: true,
    validated: 'app_store',
    environment: 'PRODUCTION',
    event_type: 'INITIAL_PURCHASE',
    duplicate: false,
    recorded: true,
  });
  t.like(app.net.calls.at(-1)!.body, { referralCode: shop.creator_code, appUserId: user });
  const conversions = await fetch(`${h().baseUrl}/api/sdk/recent-conversions?app_user_id=${user}`, {
    headers: { authorization: `Bearer ${shop.sdk_key}` },
  }).then((r) => r.json());
  t.like(conversions, { count: 1, attributed_count: 1 });
  t.is(conversions.conversions[0].referral_code, shop.creator_code);

  const second = signedTransaction(world(), shop, { environment: 'Sandbox' });
  await app.client.reportPurchase(ios(second.jws));
  t.false('referralCode' in app.net.calls.at(-1)!.body, 'only the first transaction carries the stored code');
  t.deepEqual(reported(app.store.map), [`ios:${first.payload.transactionId}`, `ios:${second.payload.transactionId}`]);

  await app.client.clearAttribution();
  t.is(reported(app.store.map).length, 2, 'clearAttribution keeps the sent-set');

  // Back-sync: two already reported (skipped), one new, one the store cannot verify.
  const third = signedTransaction(world(), shop, { environment: 'Sandbox' });
  app.lib.purchases = [ios(first.jws), ios(second.jws), ios(third.jws), ios('not.a.jws')];
  const before = app.net.calls.length;
  t.deepEqual(await app.client.syncPurchases(), { fetched: 4, sent: 1, failed: 1 });
  t.is(app.net.calls.slice(before).filter((c) => c.path === '/sdk/purchase').length, 2, 'already-reported purchases are not sent');
});

test('rule 3: reportPurchase throws; a verification failure is final, a 503 is retryable and stays pending', async (t) => {
  const app = await started({ autoCapture: false });
  const refused = await t.throwsAsync(app.client.reportPurchase(ios('bad.jws.value')), { instanceOf: SvcError });
  t.is(refused.status, 400);
  t.false(refused.retryable);
  t.false(app.store.map.has('@svc/outbox'), 'a refused report is not retried');

  world().ecb.failWith = 500;
  const unpriced = signedTransaction(world(), shop, { environment: 'Production', currency: 'SEK', price: 99000 });
  try {
    const err = await t.throwsAsync(app.client.reportPurchase(ios(unpriced.jws)), { instanceOf: SvcError });
    t.is(err.status, 503, err.message);
    t.true(err.retryable);
    t.deepEqual(Object.keys(JSON.parse(app.store.map.get('@svc/outbox')!).purchases), [`ios:${unpriced.payload.transactionId}`]);
  } finally {
    world().ecb.failWith = null;
  }
});

test('idempotency: a pending purchase is persisted before its first send and sent again, unchanged, after a killed process', async (t) => {
  const app = await started({ autoCapture: false });
  await app.client.applyCode(shop.creator_code);
  const { jws, payload } = signedTransaction(world(), shop, { environment: 'Sandbox' });
  let outboxAtSend: string | undefined;
  app.net.beforeSend = (path) => {
    if (path === '/sdk/purchase') outboxAtSend = app.store.map.get('@svc/outbox');
  };
  app.net.loseAnswer.add('/sdk/purchase');
  await t.throwsAsync(app.client.reportPurchase(ios(jws)), { instanceOf: SvcError });
  const pending = JSON.parse(outboxAtSend!).purchases[`ios:${payload.transactionId}`];
  t.like(pending, { platform: 'ios', signedTransaction: jws, referralCode: shop.creator_code });

  // The restarted process has lost its code (cleared), yet resends the body the first attempt decided.
  await app.client.clearAttribution();
  const restarted = nativeApp(freshIp());
  await restarted.client.initialize({ apiKey: shop.sdk_key, baseUrl: `${h().baseUrl}/api`, storage: app.store, platform: 'ios' });
  t.deepEqual(restarted.net.calls.find((c) => c.path === '/sdk/purchase')!.body, pending);
  t.false(app.store.map.has('@svc/outbox'));
  t.deepEqual(reported(app.store.map), [`ios:${payload.transactionId}`]);
  const answer = await restarted.client.reportPurchase(ios(jws));
  t.true(answer.duplicate, 'the service recorded it once');
});

test('rule 7: the iOS account token is a UUID v5 layout of the SHA-256 of the user id', (t) => {
  t.is(accountToken('alice'), '2bd806c9-7f0e-50af-9a1f-c3328fa763a9');
  t.regex(accountToken('user-42'), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.not(accountToken('user-42'), accountToken('user-43'));
});
