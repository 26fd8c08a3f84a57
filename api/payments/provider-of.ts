// Which payment provider this server offers for top-ups (PAYMENT_PROVIDER, else Stripe when its key is set, else
// the embedded test mode, which production never offers: it would be free money).
import { stripeProvider, type StripeSettings } from '../../clients/payments/stripe.js';
import type { PaymentProvider } from '../../clients/payments/provider.js';
import { testModeProvider } from '../../clients/payments/test-mode.js';
import type { Config } from '../../lib/config.js';

export function stripeSettingsOf(config: Config): StripeSettings | undefined {
  return config.STRIPE_SECRET_KEY
    ? { secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET, apiRoot: config.STRIPE_API_ROOT }
    : undefined;
}

export function paymentProviderOf(config: Config): PaymentProvider | undefined {
  const name = config.PAYMENT_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'test');
  if (name === 'stripe') {
    const settings = stripeSettingsOf(config);
    return settings ? stripeProvider(settings) : undefined;
  }
  return config.NODE_ENV === 'production' ? undefined : testModeProvider;
}

/** Where the top-up form may post and be redirected: our own origin, and Stripe's checkout page for Stripe. */
export function formActionOf(config: Config, provider: PaymentProvider): string {
  if (provider.name !== 'stripe') return "'self'";
  return ["'self'", 'https://checkout.stripe.com', ...(config.STRIPE_API_ROOT ? [new URL(config.STRIPE_API_ROOT).origin] : [])].join(' ');
}
