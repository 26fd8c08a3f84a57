// Which payment provider this server offers (PAYMENT_PROVIDER, else Stripe when its key is set, else the embedded
// test mode, which production never offers: it would be free money). The worker's auto-recharge charges with the
// provider the organization saved its method with, found by name.
import type { Config } from '../../runtime/config.js';
import type { PaymentProviderName } from '../../schema/types.js';
import type { PaymentProvider, RechargeProvider } from './provider.js';
import { stripeProvider, type StripeSettings } from './stripe.js';
import { testModeProvider } from './test-mode.js';

export function stripeSettingsOf(config: Config): StripeSettings | undefined {
  return config.STRIPE_SECRET_KEY
    ? { secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET, apiRoot: config.STRIPE_API_ROOT }
    : undefined;
}

/** The provider called `name`, when this server can use it. */
export function providerNamed(config: Config, name: PaymentProviderName): (PaymentProvider & RechargeProvider) | undefined {
  if (name === 'stripe') {
    const settings = stripeSettingsOf(config);
    return settings ? stripeProvider(settings) : undefined;
  }
  return config.NODE_ENV === 'production' ? undefined : testModeProvider;
}

export function paymentProviderOf(config: Config): (PaymentProvider & RechargeProvider) | undefined {
  return providerNamed(config, (config.PAYMENT_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'test')) as PaymentProviderName);
}
