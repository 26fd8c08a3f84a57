// Top-ups through Stripe Checkout (a local stub speaking Stripe's wire format): starting a payment spends the link
// and redirects to Checkout; the redirect back credits nothing; only a signature-verified
// checkout.session.completed / async_payment_succeeded with payment_status `paid` credits, with the amount Stripe
// reports, once per session, also after the 15-minute link expired. A forged signature is 400 and credits nothing.
import test from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { createSignedLink } from '../../lib/signed-links.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';

const SECRET = 'sk_test_stub_secret_key';
const WEBHOOK_SECRET = 'whsec_test_stub_secret';
let stub: StripeStub;
const stubReady = startStripeStub(SECRET, WEBHOOK_SECRET).then((s) => {
  stub = s;
});
const h = useHarness(test, {
  worker: false,
  env: { STRIPE_SECRET_KEY: SECRET, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_ROOT: 'http://127.0.0.1:9/' },
});

test.before(async () => {
  await h.ready();
  await stubReady;
  h().config.STRIPE_API_ROOT = stub.url;
});
test.after.always(async () => {
  await stub?.close();
});

async function topupLink(app: SeededApp): Promise<string> {
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'billing', scopes: ['billing:read'] });
  const res = await request(h().baseUrl, 'POST', '/api/agent/wallet/topup-link', { token: key.key, body: {} });
  const url = new URL(res.body.url as string);
  return `${url.pathname}${url.search}`;
}

const postForm = (path: string, fields: Record<string, string>) =>
  request(h().baseUrl, 'POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
  });

const deliver = (event: { payload: string; signature?: string }) =>
  request(h().baseUrl, 'POST', '/api/webhooks/stripe', {
    rawBody: event.payload,
    headers: { 'content-type': 'application/json', ...(event.signature ? { 'stripe-signature': event.signature } : {}) },
  });

/** Starts a 25 USD payment on the link's page; answers the Checkout Session the stub created. */
async function startCheckout(link: string) {
  const started = await postForm(link, { amount_usd: '25' });
  if (started.status !== 303) throw new Error(`${started.status} ${started.text}`);
  const location = started.headers.get('location')!;
  const sessionId = /\/pay\/(cs_test_\w+)$/.exec(location)![1]!;
  return { location, session: stub.sessions.get(sessionId)! };
}

test('the redirect back credits nothing; the signed completed event credits the session amount once, also redelivered', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const link = await topupLink(app);
  const page = await request(h().baseUrl, 'GET', link, { headers: { accept: 'text/html' } });
  t.regex(page.text, /Stripe Checkout/);
  t.regex(page.headers.get('content-security-policy') ?? '', new RegExp(`form-action 'self' https://checkout.stripe.com ${stub.url}`));

  const { location, session } = await startCheckout(link);
  t.true(location.startsWith(stub.url));
  t.like(session, { amount_total: 2500, currency: 'usd', mode: 'payment' });
  t.is(session.metadata.org_id, app.org_id);
  t.true(stub.authorizations.includes(`Bearer ${SECRET}`));
  const payment = await h().db('payments').where({ org_id: app.org_id }).first();
  t.like(payment, { provider: 'stripe', external_id: session.id, status: 'pending', amount_micros: 25_000_000 });

  const back = await request(h().baseUrl, 'GET', new URL(session.success_url).pathname, { headers: { accept: 'text/html' } });
  t.regex(back.text, /data-status="pending"/);
  t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 0, 'returning from Checkout is no proof of payment');

  const event = stub.signedEvent('checkout.session.completed', session.id, { payment_status: 'paid', status: 'complete' });
  const first = await deliver(event);
  t.is(first.status, 200, first.text);
  t.like(first.body, { received: true, credited: true, payment_id: payment.id });
  const second = await deliver(event);
  t.like(second.body, { received: true, credited: false });
  t.deepEqual(await getWalletTotals(h().db, app.org_id), { balanceMicros: 25_000_000, reservedMicros: 0, safeAvailableMicros: 25_000_000 });
  t.is((await h().db('wallet_ledger').where({ org_id: app.org_id, entry_type: 'topup' })).length, 1);
  t.regex((await request(h().baseUrl, 'GET', new URL(session.success_url).pathname)).text, /Credited \$25\.00 USD/);
  await assertExactBooks(t, h().db, app.org_id);
});

test('a forged or missing signature is 400 and credits nothing', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const { session } = await startCheckout(await topupLink(app));
  const forged = stub.signedEvent('checkout.session.completed', session.id, { payment_status: 'paid' }, 'whsec_someone_else');
  const res = await deliver(forged);
  t.is(res.status, 400);
  t.regex(res.body.detail, /Invalid Stripe signature/);
  t.is((await deliver({ payload: forged.payload })).status, 400);
  const tampered = stub.signedEvent('checkout.session.completed', session.id, { payment_status: 'paid' });
  t.is(
    (await deliver({ payload: tampered.payload.replace('"amount_total":2500', '"amount_total":9999999'), signature: tampered.signature }))
      .status,
    400,
  );
  t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 0);
  t.is((await h().db('payments').where({ external_id: session.id }).first()).status, 'pending');
});

test('an unpaid completion credits nothing; async_payment_succeeded credits later, after the link has expired', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const short = createSignedLink({
    masterKey: h().config.SVC_MASTER_KEY!,
    dashboardUrl: h().config.DASHBOARD_URL,
    purpose: 'wallet-topup',
    org: app.org_id,
    ttlSeconds: 2,
  });
  const url = new URL(short.url);
  const { session } = await startCheckout(`${url.pathname}${url.search}`);
  const pending = await deliver(
    stub.signedEvent('checkout.session.completed', session.id, { payment_status: 'unpaid', status: 'complete' }),
  );
  t.like(pending.body, { received: true, credited: false, payment_status: 'unpaid' });
  await new Promise((r) => setTimeout(r, 2500));
  t.is((await request(h().baseUrl, 'GET', `${url.pathname}${url.search}`)).status, 410, 'the link is expired (and spent)');
  const paid = await deliver(stub.signedEvent('checkout.session.async_payment_succeeded', session.id, { payment_status: 'paid' }));
  t.like(paid.body, { received: true, credited: true });
  t.is((await getWalletTotals(h().db, app.org_id)).balanceMicros, 25_000_000);
});
