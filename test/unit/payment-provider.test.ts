import test from 'ava';
import { paymentProviderOf } from '../../clients/payments/select.js';
import { loadConfig } from '../../runtime/config.js';

const provider = (env: Record<string, string>) => paymentProviderOf(loadConfig(env))?.name;

test('without Stripe, development and tests get the embedded test mode', (t) => {
  t.is(provider({}), 'test');
  t.is(provider({ NODE_ENV: 'test' }), 'test');
});

test('production never offers test mode, even when asked for it', (t) => {
  t.is(provider({ NODE_ENV: 'production' }), undefined);
  t.is(provider({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }), undefined);
});

test('a Stripe key selects Stripe; PAYMENT_PROVIDER=stripe without a key offers nothing', (t) => {
  t.is(provider({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x' }), 'stripe');
  t.is(provider({ STRIPE_SECRET_KEY: 'sk_test_x' }), 'stripe');
  t.is(provider({ PAYMENT_PROVIDER: 'test', STRIPE_SECRET_KEY: 'sk_test_x' }), 'test');
  t.is(provider({ PAYMENT_PROVIDER: 'stripe' }), undefined);
});
