// Auto-recharge with Stripe from the dashboard's wallet page (a local stub speaking Stripe's wire format): the form
// answers a redirect to Checkout in setup mode (the page's CSP lets the form go there), nothing is enabled until the
// signed webhook saves the card, and the wallet page then shows the card and provider from the same read as
// GET /api/agent/wallet.
import test from 'ava';
import { inputValue } from '../helpers/browser.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';

const SECRET = 'sk_test_stub_secret_key';
const WEBHOOK_SECRET = 'whsec_test_stub_secret';
let stub: StripeStub;
const stubReady = startStripeStub(SECRET, WEBHOOK_SECRET).then((s) => {
  stub = s;
});
const { h, seed } = useSeededHarness(test, {
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

const text = (html: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];

test(
  'the wallet page sends the human to Checkout in setup mode; ' + 'only the signed webhook enables it; the page shows the card',
  async (t) => {
    const owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
    const page = await owner.browser.fetch(`${h().baseUrl}/dashboard/wallet`);
    t.is(page.status, 200);
    t.regex(page.text, /save a card with Stripe/);
    t.regex(page.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/checkout\.stripe\.com/);

    const started = await owner.browser.fetch(`${h().baseUrl}/dashboard/wallet/auto-recharge`, {
      form: {
        csrf: inputValue(page.text, 'csrf')!,
        action: 'auto_recharge_enable',
        auto_recharge_threshold_usd: '50',
        auto_recharge_amount_usd: '100',
      },
    });
    t.is(started.status, 303, started.text);
    const sessionId = /\/setup\/(cs_test_\w+)$/.exec(started.location ?? '')?.[1];
    t.truthy(sessionId, started.location);
    t.like(stub.sessions.get(sessionId!), { mode: 'setup' });
    t.is(
      (await h().db('organizations').where('id', seed.org_id).first()).auto_recharge_enabled,
      false,
      'starting the setup enables nothing',
    );
    t.is(text((await owner.browser.fetch(`${h().baseUrl}/dashboard/wallet`)).text, 'ar-state'), 'off');

    stub.completeSetup(sessionId!, 'pm_card_visa');
    const event = stub.signedEvent('checkout.session.completed', sessionId!);
    const delivered = await request(h().baseUrl, 'POST', '/api/webhooks/stripe', {
      rawBody: event.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    });
    t.like(delivered.body, { handled: true, enabled_now: true });

    const after = (await owner.browser.fetch(`${h().baseUrl}/dashboard/wallet`)).text;
    const view = (await request(h().baseUrl, 'GET', '/api/agent/wallet', { token: seed.agent_key })).body.auto_recharge;
    t.like(view, { enabled: true, provider: 'stripe', payment_method: 'visa card ending in 4242', threshold_micros: 50_000_000 });
    t.is(text(after, 'ar-state'), 'on');
    t.is(text(after, 'ar-provider'), 'stripe');
    t.is(text(after, 'ar-card'), view.payment_method);
    t.is(text(after, 'ar-threshold'), '$50.00 USD');
  },
);
