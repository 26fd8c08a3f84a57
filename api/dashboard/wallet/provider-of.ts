// Where the top-up and auto-recharge forms may post and be redirected: our own origin, and Stripe's checkout page
// for Stripe. (Which provider: clients/payments/select.ts.)
import type { PaymentProvider } from '../../../clients/payments/provider.js';
import type { Config } from '../../../runtime/config.js';

export function formActionOf(config: Config, provider: PaymentProvider): string {
  if (provider.name !== 'stripe') return "'self'";
  return ["'self'", 'https://checkout.stripe.com', ...(config.STRIPE_API_ROOT ? [new URL(config.STRIPE_API_ROOT).origin] : [])].join(' ');
}
