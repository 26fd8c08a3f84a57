// Auto-recharge through Stripe (a local stub speaking its wire format): the human saves a card through Checkout in
// setup mode, which only the signed webhook completes; a reservation below the threshold makes the workflow create
// one off-session PaymentIntent (confirm, off_session, idempotency key naming the payment); the wallet is credited
// once whether the synchronous answer or `payment_intent.succeeded` (redelivered) comes first; a forged event
// credits nothing; a declined card is recorded on the wallet.
import test from 'ava';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { enableFields, postForm, rechargeResult, recharges, topupEntries, topupLink } from '../helpers/auto-recharge.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';

const SECRET = 'sk_test_stub_secret_key';
const WEBHOOK_SECRET = 'whsec_test_stub_secret';
let stub: StripeStub;
const stubReady = startStripeStub(SECRET, WEBHOOK_SECRET).then((s) => {
  stub = s;
});
const h = useHarness(test, {
  env: {
    STRIPE_SECRET_KEY: SECRET,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_ROOT: 'http://127.0.0.1:9/',
    AUTO_RECHARGE_MAX_ATTEMPTS: '1',
  },
});

test.before(async () => {
  await h.ready();
  await stubReady;
  h().config.STRIPE_API_ROOT = stub.url;
});
test.after.always(async () => {
  await stub?.close();
});

const RESERVE = 3_000_000 + 300_000;
// stub.intentStatus and dropIntentReplies are shared: the tests that set them run serially (before the concurrent ones).
const deliver = (event: { payload: string; signature?: string }) =>
  request(h().baseUrl, 'POST', '/api/webhooks/stripe', {
    rawBody: event.payload,
    headers: { 'content-type': 'application/json', ...(event.signature ? { 'stripe-signature': event.signature } : {}) },
  });
const purchase = (app: SeededApp) =>
  sendWebhook(
    h().baseUrl,
    app.app_id,
    app.webhook_secret,
    subscription(`ars-${Math.random().toString(36).slice(2)}`, app.creator_code)('initial_purchase'),
  );

/** The human enables auto-recharge on the page and saves `card` on Stripe's setup page; the webhook completes it. */
async function enableWithStripe(app: SeededApp, card = 'pm_card_visa') {
  const { path, agentKey } = await topupLink(h().baseUrl, h().db, app.org_id);
  const started = await postForm(h().baseUrl, path, enableFields('50', '100'));
  if (started.status !== 303) throw new Error(`${started.status} ${started.text}`);
  const sessionId = /\/setup\/(cs_test_\w+)$/.exec(started.headers.get('location')!)![1]!;
  const session = stub.completeSetup(sessionId, card);
  return { path, agentKey, session, completed: stub.signedEvent('checkout.session.completed', sessionId) };
}

test('setup mode: the card is saved only by the signed webhook, once; a forged event enables nothing', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 500 });
  const { path } = await topupLink(h().baseUrl, h().db, app.org_id);
  const page = await request(h().baseUrl, 'GET', path, { headers: { accept: 'text/html' } });
  t.regex(page.text, /save a card with Stripe/);
  const started = await postForm(h().baseUrl, path, enableFields('50', '100'));
  t.is(started.status, 303, started.text);
  const sessionId = /\/setup\/(cs_test_\w+)$/.exec(started.headers.get('location')!)![1]!;
  const session = stub.sessions.get(sessionId)!;
  t.like(session, { mode: 'setup', currency: 'usd' });
  t.regex(session.customer!, /^cus_/);
  t.like(stub.setupIntents.get(session.setup_intent!), { customer: session.customer, status: 'requires_payment_method' });
  t.is((await h().db('organizations').where('id', app.org_id).first()).auto_recharge_enabled, false, 'starting the setup enables nothing');

  stub.completeSetup(sessionId, 'pm_card_visa');
  const back = await request(h().baseUrl, 'GET', new URL(session.success_url).pathname, { headers: { accept: 'text/html' } });
  t.regex(back.text, /data-status="pending"/, 'returning from Checkout is no proof');
  const forged = stub.signedEvent('checkout.session.completed', sessionId, {}, 'whsec_someone_else');
  t.is((await deliver(forged)).status, 400);
  t.is((await h().db('organizations').where('id', app.org_id).first()).auto_recharge_enabled, false);

  const event = stub.signedEvent('checkout.session.completed', sessionId);
  t.like((await deliver(event)).body, { received: true, handled: true, enabled_now: true });
  t.like((await deliver(event)).body, { received: true, handled: true, enabled_now: false }, 'a redelivery changes nothing');
  const org = await h().db('organizations').where('id', app.org_id).first();
  t.like(org, {
    auto_recharge_enabled: true,
    auto_recharge_provider: 'stripe',
    auto_recharge_customer_id: session.customer,
    auto_recharge_payment_method_id: 'pm_card_visa',
    auto_recharge_payment_method_label: 'visa card ending in 4242',
    auto_recharge_threshold_micros: 50_000_000,
    auto_recharge_amount_micros: 100_000_000,
  });
  t.regex((await request(h().baseUrl, 'GET', new URL(session.success_url).pathname)).text, /Your card is saved/);
  t.is((await recharges(h().db, app.org_id)).length, 0, 'above the threshold: nothing charged');
});

test.serial(
  'off-session charge still processing: payment_intent.succeeded credits once, redelivered twice; a forged one credits nothing',
  async (t) => {
    const app = await seedApp(h().db, { walletUsd: 52 });
    const { completed } = await enableWithStripe(app);
    await deliver(completed);
    stub.intentStatus = 'processing';
    try {
      await purchase(app);
      t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'processing' });
    } finally {
      stub.intentStatus = 'succeeded';
    }
    const [recharge] = await recharges(h().db, app.org_id);
    t.like(recharge, { status: 'pending', provider: 'stripe' });
    const intent = stub.paymentIntents.get(recharge.external_id)!;
    t.like(intent, {
      amount: 10_000,
      currency: 'usd',
      confirm: true,
      off_session: true,
      payment_method: 'pm_card_visa',
      status: 'processing',
    });
    t.is(intent.metadata.payment_id, recharge.id);
    t.true(stub.intentKeys.includes(`auto-recharge:${recharge.id}`), 'the idempotency key names the payment');
    t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 52_000_000, 'nothing credited while processing');

    Object.assign(intent, { status: 'succeeded', amount_received: 10_000 });
    const forged = stub.signedObjectEvent('payment_intent.succeeded', intent, 'whsec_someone_else');
    t.is((await deliver(forged)).status, 400);
    t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 52_000_000, 'a forged signature credits nothing');
    const event = stub.signedObjectEvent('payment_intent.succeeded', intent);
    const answers = [await deliver(event), await deliver(event), await deliver(event)];
    t.deepEqual(
      answers.map((a) => a.body.credited),
      [true, false, false],
    );
    t.is((await topupEntries(h().db, app.org_id)).length, 2, 'the seed and one recharge');
    t.deepEqual(await getWalletTotals(h().db, app.org_id), {
      balanceMicros: 152_000_000,
      reservedMicros: RESERVE,
      safeAvailableMicros: 152_000_000 - RESERVE,
    });
    await assertExactBooks(t, h().db, app.org_id);
  },
);

test.serial('an intent that succeeds at once is credited by the workflow; the later webhook credits nothing', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  const { completed } = await enableWithStripe(app);
  await deliver(completed);
  await purchase(app);
  t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'succeeded' });
  const [recharge] = await recharges(h().db, app.org_id);
  t.like(recharge, { status: 'succeeded', credited_micros: 100_000_000 });
  const late = await deliver(stub.signedObjectEvent('payment_intent.succeeded', stub.paymentIntents.get(recharge.external_id)!));
  t.like(late.body, { handled: true, credited: false, payment_id: recharge.id });
  t.is((await topupEntries(h().db, app.org_id)).length, 2);
  t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 152_000_000);
  await assertExactBooks(t, h().db, app.org_id);
});

test.serial('an answer lost after Stripe charged is retried with the same idempotency key: one PaymentIntent, credited once', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  const { completed } = await enableWithStripe(app);
  await deliver(completed);
  stub.dropIntentReplies = 1;
  try {
    await purchase(app);
    t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'succeeded', attempts: 1 });
  } finally {
    stub.dropIntentReplies = 0;
  }
  const [recharge, ...more] = await recharges(h().db, app.org_id);
  t.is(more.length, 0);
  const keys = stub.intentKeys.filter((k) => k === `auto-recharge:${recharge.id}`);
  t.true(keys.length >= 2, 'the call was repeated with the same key');
  t.is(
    [...stub.paymentIntents.values()].filter((i) => i.metadata.payment_id === recharge.id).length,
    1,
    'Stripe created one PaymentIntent',
  );
  t.is((await topupEntries(h().db, app.org_id)).length, 2);
  t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 152_000_000);
  await assertExactBooks(t, h().db, app.org_id);
});

test('a declined card is a visible failure on the wallet; nothing is credited', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  const { completed, agentKey } = await enableWithStripe(app, 'pm_card_chargeDeclined');
  await deliver(completed);
  await purchase(app);
  t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'disabled', attempts: 1 });
  const [recharge] = await recharges(h().db, app.org_id);
  t.like(recharge, { status: 'failed', failure: 'Your card was declined.' });
  const seen = await request(h().baseUrl, 'GET', '/api/agent/wallet', { token: agentKey });
  t.like(seen.body, {
    auto_recharge_enabled: false,
    auto_recharge: { last_result: { status: 'failed', failure: 'Your card was declined.' } },
  });
  t.regex(seen.body.auto_recharge.disabled_reason, /Your card was declined/);
  t.is((await topupEntries(h().db, app.org_id)).length, 1);
});
