// Which payout provider this server pays creators through (PAYOUT_PROVIDER, else Stripe Connect when its key is
// set, else the embedded test mode, which production never offers: it would record payouts that move no money).
// A payout is sent through the provider its creator's account was opened with, found by name.
import { stripeSettingsOf } from '../payments/select.js';
import type { Config } from '../../runtime/config.js';
import type { PayoutProviderName } from '../../schema/types.js';
import type { PayoutProvider } from './provider.js';
import { stripeConnectProvider } from './stripe.js';
import { testModePayoutProvider } from './test-mode.js';

export function payoutProviderNamed(config: Config, name: PayoutProviderName): PayoutProvider | undefined {
  if (name === 'stripe') {
    const settings = stripeSettingsOf(config);
    return settings ? stripeConnectProvider(settings) : undefined;
  }
  return config.NODE_ENV === 'production' ? undefined : testModePayoutProvider(config);
}

export function payoutProviderOf(config: Config): PayoutProvider | undefined {
  return payoutProviderNamed(config, (config.PAYOUT_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'test')) as PayoutProviderName);
}
