// POST /api/sdk/purchase (spec "Client API"): every refusal with its own status and detail before or from the
// store-purchase workflow, the exact answer, camelCase, joins and reruns of the workflow, store outages and missing
// rates (503, nothing recorded, a later report processed), refunds reported later, and provider webhooks of a
// store-direct platform acknowledged and not counted. Stubs speak Apple's, Google's and the ECB's wire formats.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  ANSWER_KEYS,
  agentCall,
  reportPurchase,
  signedTransaction,
  useStoreWorld,
  storeAccount,
  switchToStoreDirect,
  type StoreAccount,
} from '../helpers/store-direct.js';
import { request } from '../helpers/http.js';
import { signTransaction, transactionPayload, createAppleChain } from '../helpers/apple-signing.js';

const { h } = useSeededHarness(test);
const world = useStoreWorld(test, h);
let a: StoreAccount;

test.before(async () => {
  await world.ready();
  a = await storeAccount(h());
  await switchToStoreDirect(h(), world(), a, 'ios');
  await switchToStoreDirect(h(), world(), a, 'android');
});

test.afterEach.always(() => {
  world().google.failWith = null;
  world().ecb.failWith = null;
});

const eventsOf = (transactionId: string) =>
  h().db('purchase_events').where({ app_id: a.app_id, transaction_id: transactionId }).orderBy('received_at');
const detail = (res: { body: any }) => res.body.detail as string;

test.serial('the answer is exactly the spec fields; camelCase is accepted; validated names the verifier', async (t) => {
  const { jws, payload } = signedTransaction(world(), a, { environment: 'Production' });
  const res = await reportPurchase(h(), a, {
    platform: 'ios',
    signedTransaction: jws,
    referralCode: ` ${a.creator_code.toLowerCase()} `,
    appUserId: 'camel-user',
  });
  t.is(res.status, 200, res.text);
  t.deepEqual(Object.keys(res.body).sort(), ANSWER_KEYS);
  t.deepEqual(Object.keys(res.body.result).sort(), ['event_id', 'processed']);
  t.like(res.body, {
    success: true,
    validated: 'app_store',
    environment: 'PRODUCTION',
    event_type: 'INITIAL_PURCHASE',
    duplicate: false,
    recorded: true,
    result: { processed: true },
  });
  t.is(typeof res.body.validated, 'string');
  const [event] = await eventsOf(payload.transactionId as string);
  t.like(event, {
    id: res.body.result.event_id,
    source: 'store_direct',
    app_user_id: 'camel-user',
    referral_code: a.creator_code,
    attributed: true,
    event_timestamp_ms: payload.purchaseDate,
  });
  const proof = await h().db('store_purchase_proofs').where({ app_id: a.app_id, purchase_event_id: event.id }).first();
  t.like(proof, { platform: 'ios', status: 'verified' });
  t.regex(proof.workflow_id, new RegExp(`^store-purchase/${a.app_id}/[0-9a-f]{64}$`));
});

test.serial(
  '400s, each with its own detail: platform, not switched, credentials missing, proof missing, verification failed',
  async (t) => {
    const web = await reportPurchase(h(), a, { platform: 'web', signed_transaction: 'x' });
    t.is(web.status, 400);
    t.regex(detail(web), /platform must be ios or android/);

    const plain = await storeAccount(h());
    const notSwitched = await reportPurchase(h(), plain, { platform: 'ios', signed_transaction: signedTransaction(world(), plain).jws });
    t.is(notSwitched.status, 400);
    t.regex(detail(notSwitched), /not switched to store-direct.*validate-store-credentials.*activate-store-direct/);

    const roots = h().config.APPLE_ROOT_CERTS;
    h().config.APPLE_ROOT_CERTS = undefined;
    try {
      const noRoots = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: signedTransaction(world(), a).jws });
      t.is(noRoots.status, 400);
      t.regex(detail(noRoots), /App Store credentials are missing/);
    } finally {
      h().config.APPLE_ROOT_CERTS = roots;
    }
    const gone = await storeAccount(h());
    await switchToStoreDirect(h(), world(), gone, 'android');
    await h().db('store_credentials').where({ app_id: gone.app_id, platform: 'android' }).delete();
    const noAccount = await reportPurchase(h(), gone, { platform: 'android', purchase_token: 'tok' });
    t.is(noAccount.status, 400);
    t.regex(detail(noAccount), /service account is missing/);
    await switchToStoreDirect(h(), world(), a, 'android');

    for (const body of [{ platform: 'ios' }, { platform: 'ios', signed_transaction: null }, { platform: 'android', purchase_token: '' }]) {
      const missing = await reportPurchase(h(), a, body);
      t.is(missing.status, 400, JSON.stringify(body));
      t.regex(detail(missing), /proof is missing/);
    }
    const notJws = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: 'eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln' });
    t.is(notJws.status, 400);
    t.regex(detail(notJws), /not a JWS of an App Store transaction/);

    const foreign = signTransaction(
      await createAppleChain('Forger'),
      transactionPayload({ bundleId: a.bundleId, transactionId: randomUUID() }),
    );
    const forged = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: foreign });
    t.is(forged.status, 400);
    t.regex(detail(forged), /^Verification failed: the signature or its certificate chain does not verify/);
    const otherApp = await reportPurchase(h(), a, {
      platform: 'ios',
      signed_transaction: signTransaction(world().chain, transactionPayload({ bundleId: 'com.someone.else' })),
    });
    t.is(otherApp.status, 400);
    t.regex(detail(otherApp), /belongs to another app/);
    const unknownToken = await reportPurchase(h(), a, { platform: 'android', purchase_token: `unknown-${randomUUID()}` });
    t.is(unknownToken.status, 400);
    t.regex(detail(unknownToken), /Verification failed: Google Play does not know this purchase/);
    t.is(await h().db('purchase_events').where({ app_id: a.app_id }).whereIn('transaction_id', [randomUUID()]).first(), undefined);
  },
);

test.serial('422 for mistyped fields, and for a one-time Android product without price or currency (naming them)', async (t) => {
  const bad = await reportPurchase(h(), a, { platform: 5, signedTransaction: 42, price: 'free', currency: 'EURO', appUserId: 7 });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail.map((p: { loc: string[] }) => p.loc.join('.')).sort(), [
    'body.app_user_id',
    'body.currency',
    'body.platform',
    'body.price',
    'body.signed_transaction',
  ]);
  const noPrice = await reportPurchase(h(), a, { platform: 'android', purchase_token: 'tok', product_id: 'coins' });
  t.is(noPrice.status, 422);
  t.deepEqual(
    noPrice.body.detail.map((p: { loc: string[] }) => p.loc),
    [
      ['body', 'price'],
      ['body', 'currency'],
    ],
  );
  const noCurrency = await reportPurchase(h(), a, { platform: 'android', purchaseToken: 'tok', productId: 'coins', price: 4.99 });
  t.deepEqual(
    noCurrency.body.detail.map((p: { loc: string[] }) => p.loc),
    [['body', 'currency']],
  );
});

test.serial(
  'Android: a pending one-time purchase is 409; a subscription test purchase is SANDBOX; a voided purchase reported later is its refund',
  async (t) => {
    const token = `tok-${randomUUID()}`;
    const orderId = `GPA.${randomUUID().slice(0, 18)}`;
    world().google.products.set(`coins/${token}`, {
      purchaseState: 2,
      orderId,
      purchaseTimeMillis: String(Date.now() - 3_600_000),
      productId: 'coins',
      purchaseType: null,
    });
    const pending = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: token,
      product_id: 'coins',
      price: 2.99,
      currency: 'USD',
      app_user_id: 'droid',
    });
    t.is(pending.status, 409);
    t.regex(detail(pending), /not in PURCHASED state.*PENDING/);

    world().google.products.set(`coins/${token}`, {
      purchaseState: 0,
      orderId,
      purchaseTimeMillis: String(Date.now() - 3_600_000),
      productId: 'coins',
    });
    const bought = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: token,
      product_id: 'coins',
      price: 2.99,
      currency: 'USD',
      app_user_id: 'droid',
      referral_code: a.creator_code,
    });
    t.is(bought.status, 200, bought.text);
    t.like(bought.body, { validated: 'google_play', environment: 'PRODUCTION', event_type: 'NON_RENEWING_PURCHASE', duplicate: false });
    const conversion = await h().db('conversions').where({ app_id: a.app_id, conversion_key: orderId }).first();
    t.like(conversion, { kind: 'one_time', status: 'active', attributed: true });

    world().google.products.set(`coins/${token}`, {
      purchaseState: 1,
      orderId,
      purchaseTimeMillis: String(Date.now() - 3_600_000),
      productId: 'coins',
    });
    const voided = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: token,
      product_id: 'coins',
      price: 2.99,
      currency: 'USD',
      app_user_id: 'droid',
    });
    t.is(voided.status, 200, voided.text);
    t.like(voided.body, { event_type: 'REFUND', duplicate: false, result: { processed: true } });
    t.like(await h().db('conversions').where('id', conversion.id).first(), { status: 'refunded' });
    const commissions = await h().db('commissions').where('conversion_id', conversion.id).orderBy('created_at');
    t.deepEqual(
      commissions.map((c) => [c.kind, c.status]),
      [
        ['earn', 'reversed'],
        ['reversal', 'reversed'],
      ],
    );

    const subToken = `sub-${randomUUID()}`;
    world().google.subscriptions.set(subToken, {
      subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
      startTime: new Date(Date.now() - 60_000).toISOString(),
      testPurchase: {},
      lineItems: [
        {
          productId: 'pro_monthly',
          latestSuccessfulOrderId: `GPA.${randomUUID().slice(0, 8)}`,
          expiryTime: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          autoRenewingPlan: { autoRenewEnabled: true, recurringPrice: { currencyCode: 'USD', units: '4', nanos: 990000000 } },
        },
      ],
    });
    const sub = await reportPurchase(h(), a, {
      platform: 'android',
      purchaseToken: subToken,
      appUserId: 'droid-sub',
      referralCode: a.creator_code,
    });
    t.is(sub.status, 200, sub.text);
    t.like(sub.body, { environment: 'SANDBOX', event_type: 'INITIAL_PURCHASE' });
    const subConversion = await h().db('conversions').where({ app_id: a.app_id, conversion_key: subToken }).first();
    t.like(subConversion, { environment: 'SANDBOX', is_test: true, kind: 'subscription' });
    t.like(await h().db('commissions').where('conversion_id', subConversion.id).first(), { status: 'simulated' });
  },
);

test.serial('reports of one proof while its workflow runs join it: one store call, one event, one answer', async (t) => {
  const token = `tok-${randomUUID()}`;
  const orderId = `GPA.${randomUUID().slice(0, 18)}`;
  world().google.products.set(`boost/${token}`, {
    purchaseState: 0,
    orderId,
    purchaseTimeMillis: String(Date.now() - 60_000),
    productId: 'boost',
  });
  const body = { platform: 'android', purchase_token: token, product_id: 'boost', price: 0.99, currency: 'USD', app_user_id: 'joiner' };
  const calls = () => world().google.calls.filter((c) => c.path.endsWith(`/boost/tokens/${token}`)).length;
  world().google.delayMs = 1500;
  let answers;
  try {
    answers = await Promise.all(
      [0, 1, 2].map(async (i) => {
        await new Promise((r) => setTimeout(r, i * 200));
        return reportPurchase(h(), a, body);
      }),
    );
  } finally {
    world().google.delayMs = 0;
  }
  for (const r of answers) t.is(r.status, 200, r.text);
  t.is(calls(), 1, 'one verification served all three reports');
  t.deepEqual(answers[1]!.body, answers[0]!.body);
  t.deepEqual(answers[2]!.body, answers[0]!.body);
  t.false(answers[0]!.body.duplicate);
  t.is((await eventsOf(orderId)).length, 1);
  // After the run closed, the same report runs again and answers duplicate.
  const again = await reportPurchase(h(), a, body);
  t.like(again.body, { duplicate: true, result: { event_id: answers[0]!.body.result.event_id } });
  t.is(calls(), 2);
});

test.serial(
  'past the bounded wait the answer is 503; the run still records once, and a later report gets the recorded result',
  async (t) => {
    const token = `tok-${randomUUID()}`;
    const orderId = `GPA.${randomUUID().slice(0, 18)}`;
    world().google.products.set(`slow/${token}`, {
      purchaseState: 0,
      orderId,
      purchaseTimeMillis: String(Date.now() - 60_000),
      productId: 'slow',
    });
    const body = { platform: 'android', purchase_token: token, product_id: 'slow', price: 0.99, currency: 'USD', app_user_id: 'patient' };
    const wait = h().config.SDK_PURCHASE_WAIT_MS;
    h().config.SDK_PURCHASE_WAIT_MS = 300;
    world().google.delayMs = 1500;
    try {
      const early = await reportPurchase(h(), a, body);
      t.is(early.status, 503, early.text);
      t.regex(detail(early), /still being verified; report it again/);
      t.is(early.headers.get('retry-after'), '5');
    } finally {
      h().config.SDK_PURCHASE_WAIT_MS = wait;
      world().google.delayMs = 0;
    }
    const later = await reportPurchase(h(), a, body);
    t.is(later.status, 200, later.text);
    t.is((await eventsOf(orderId)).length, 1);
    t.is(later.body.result.event_id, (await eventsOf(orderId))[0].id);
  },
);

test.serial('an App Store transaction re-signed (new signedDate) is the same purchase: duplicate, same event', async (t) => {
  const { jws, payload } = signedTransaction(world(), a, { environment: 'Production', type: 'Consumable' });
  const first = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: jws, app_user_id: 'resigner' });
  t.like(first.body, { duplicate: false });
  const again = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: signTransaction(world().chain, { ...payload, signedDate: Date.now() + 5 }),
  });
  t.like(again.body, { duplicate: true, result: { event_id: first.body.result.event_id } });
  t.is((await eventsOf(payload.transactionId as string)).length, 1);
});

test.serial('a store outage is 503 after bounded retries and nothing is recorded; the same report later is processed', async (t) => {
  const token = `tok-${randomUUID()}`;
  const orderId = `GPA.${randomUUID().slice(0, 18)}`;
  world().google.products.set(`gems/${token}`, {
    purchaseState: 0,
    orderId,
    purchaseTimeMillis: String(Date.now() - 60_000),
    productId: 'gems',
  });
  world().google.failWith = 503;
  const body = { platform: 'android', purchase_token: token, product_id: 'gems', price: 1.99, currency: 'USD', app_user_id: 'outage' };
  const down = await reportPurchase(h(), a, body);
  t.is(down.status, 503, down.text);
  t.regex(detail(down), /Google Play answered 503; try again; report the purchase again later/);
  t.is((await eventsOf(orderId)).length, 0);
  world().google.failWith = null;
  const up = await reportPurchase(h(), a, body);
  t.is(up.status, 200, up.text);
  t.like(up.body, { duplicate: false, event_type: 'NON_RENEWING_PURCHASE' });
});

test.serial(
  'FX: a currency without a rate, or the rate source down, is 503 with nothing recorded; a later report is processed, not a duplicate',
  async (t) => {
    const unknown = signedTransaction(world(), a, { environment: 'Production', type: 'Consumable', price: 5000, currency: 'XAU' });
    const noRate = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: unknown.jws });
    t.is(noRate.status, 503);
    t.regex(detail(noRate), /^No exchange rate for XAU on or before \d{4}-\d{2}-\d{2}; nothing was recorded/);
    t.is((await eventsOf(unknown.payload.transactionId as string)).length, 0);

    // An old purchase (back-sync) in a day the cache has not seen, while the ECB is away.
    world().ecb.failWith = 503;
    const old = signedTransaction(world(), a, {
      environment: 'Production',
      type: 'Consumable',
      price: 1200_000,
      currency: 'JPY',
      purchaseDate: Date.now() - 200 * 86_400_000,
    });
    const away = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: old.jws, app_user_id: 'backsync' });
    t.is(away.status, 503, away.text);
    t.regex(detail(away), /Exchange rates are unavailable right now/);
    t.is((await eventsOf(old.payload.transactionId as string)).length, 0);
    world().ecb.failWith = null;
    const historyReads = world().ecb.requests['eurofxref-hist.xml'] ?? 0;
    const later = await reportPurchase(h(), a, { platform: 'ios', signed_transaction: old.jws, app_user_id: 'backsync' });
    t.is(later.status, 200, later.text);
    t.like(later.body, { duplicate: false, result: { processed: true } });
    t.true((world().ecb.requests['eurofxref-hist.xml'] ?? 0) > historyReads, 'an old purchase reads the full history');
    const [event] = await eventsOf(old.payload.transactionId as string);
    // 1200 JPY at 1.1 / 160 USD per JPY = 8.25 USD.
    t.like(event, {
      currency: 'JPY',
      price_in_purchased_currency: '1200',
      price_usd_micros: 8_250_000,
      fx_rate: '0.006875',
      fx_source: world().ecb.url.replace('-90d', ''),
    });
    t.truthy(event.fx_rate_date);
  },
);

test.serial('an App Store transaction refunded later (revocationDate) reverses its commission; Xcode purchases are SANDBOX', async (t) => {
  const { jws, payload } = signedTransaction(world(), a, {
    environment: 'Production',
    type: 'Non-Consumable',
    productId: 'lifetime',
    price: 19990,
  });
  const bought = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: jws,
    referral_code: a.creator_code,
    app_user_id: 'refunder',
  });
  t.is(bought.status, 200, bought.text);
  const refunded = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: signTransaction(world().chain, {
      ...payload,
      revocationDate: Date.now(),
      revocationReason: 0,
      signedDate: Date.now(),
    }),
  });
  t.is(refunded.status, 200, refunded.text);
  t.like(refunded.body, { event_type: 'REFUND', duplicate: false });
  const conversion = await h().db('conversions').where({ app_id: a.app_id, conversion_key: payload.transactionId }).first();
  t.is(conversion.status, 'refunded');
  t.deepEqual(
    (await h().db('commissions').where('conversion_id', conversion.id).orderBy('created_at')).map((c) => c.kind),
    ['earn', 'reversal'],
  );

  const xcode = signTransaction(await createAppleChain('Xcode'), transactionPayload({ bundleId: a.bundleId, environment: 'Xcode' }));
  const local = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: xcode,
    referral_code: a.creator_code,
    app_user_id: 'xcode-user',
  });
  t.is(local.status, 200, local.text);
  t.like(local.body, { environment: 'SANDBOX', validated: 'app_store' });
  t.is(
    (await h().db('user_attributions').where({ app_id: a.app_id, app_user_id: 'xcode-user' }).whereNotNull('converted_at')).length,
    0,
    'never binds the user',
  );
});

test.serial(
  'a subscription-provider webhook for a store-direct platform is acknowledged, recorded with the reason, and not counted',
  async (t) => {
    const transactionId = `1000000${Date.now()}`;
    const event = {
      api_version: '1.0',
      event: {
        type: 'INITIAL_PURCHASE',
        id: randomUUID(),
        app_user_id: 'double',
        original_app_user_id: 'double',
        product_id: 'pro_monthly',
        period_type: 'NORMAL',
        purchased_at_ms: Date.now(),
        expiration_at_ms: Date.now() + 30 * 86_400_000,
        event_timestamp_ms: Date.now(),
        environment: 'PRODUCTION',
        store: 'APP_STORE',
        transaction_id: transactionId,
        original_transaction_id: transactionId,
        price: 9.99,
        currency: 'USD',
        subscriber_attributes: { svc_code: { value: a.creator_code, updated_at_ms: Date.now() } },
      },
    };
    const res = await request(h().baseUrl, 'POST', `/api/webhooks/subprovider/${a.app_id}`, {
      body: event,
      headers: { authorization: `Bearer ${a.webhook_secret}` },
    });
    t.is(res.status, 200, res.text);
    t.true(res.body.received);
    t.regex(res.body.error, /ios purchases of this app are validated store-direct/);
    t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), { processing_status: 'ignored', conversion_id: null });
    t.is((await h().db('conversions').where({ app_id: a.app_id, conversion_key: transactionId })).length, 0);
    const again = await request(h().baseUrl, 'POST', `/api/webhooks/subprovider/${a.app_id}`, {
      body: event,
      headers: { authorization: `Bearer ${a.webhook_secret}` },
    });
    t.is(again.body.event_id, res.body.event_id);
    // A platform still on the provider path is counted as before.
    const other = await storeAccount(h());
    const counted = await request(h().baseUrl, 'POST', `/api/webhooks/subprovider/${other.app_id}`, {
      body: event,
      headers: { authorization: `Bearer ${other.webhook_secret}` },
    });
    t.is(counted.status, 200, counted.text);
    t.false('error' in counted.body && /store-direct/.test(counted.body.error));
    t.is((await h().db('conversions').where({ app_id: other.app_id, conversion_key: transactionId })).length, 1);
    t.like((await agentCall(h(), a, 'GET', `/apps/${a.app_id}/validation-status`)).body.platforms, {
      ios: { validation_path: 'store-direct', provider: 'app_store' },
    });
  },
);
