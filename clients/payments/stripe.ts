// Stripe Checkout through the `stripe` package: a Checkout Session in payment mode for the chosen amount, and the
// signature check of the webhook that reports it paid. STRIPE_API_ROOT points the client at a local stub in tests.
import Stripe from 'stripe';
import { PaymentProviderError, type PaymentProvider } from './provider.js';

export interface StripeSettings { secretKey: string; webhookSecret: string | undefined; apiRoot: string | undefined }

export function stripeClient(settings: StripeSettings): Stripe {
  const root = settings.apiRoot ? new URL(settings.apiRoot) : undefined;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 1, timeout: 10_000,
    ...(root ? { host: root.hostname, port: Number(root.port || (root.protocol === 'https:' ? 443 : 80)), protocol: root.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    name: 'stripe',
    label: 'Payment by card through Stripe Checkout.',
    async startCheckout(r) {
      try {
        const session = await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: Math.round(r.amountMicros / 10_000), product_data: { name: 'Wallet top-up' } } }],
          client_reference_id: r.paymentId,
          metadata: { payment_id: r.paymentId, org_id: r.orgId },
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        }, { idempotencyKey: `checkout:${r.paymentId}` });
        if (!session.url) throw new PaymentProviderError('Stripe returned a session without a URL');
        return { kind: 'redirect', url: session.url, externalId: session.id };
      } catch (err) {
        if (err instanceof PaymentProviderError) throw err;
        // Stripe's error names the problem without the key; keep only its type and message.
        throw new PaymentProviderError(`Stripe refused the checkout: ${err instanceof Error ? err.message : 'error'}`);
      }
    },
  };
}

/** The verified event, or undefined when the signature (or its age) does not check out. */
export function verifyStripeEvent(settings: StripeSettings, rawBody: Buffer, signature: string | undefined): Stripe.Event | undefined {
  if (!settings.webhookSecret || !signature) return undefined;
  try {
    return stripeClient(settings).webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
  } catch {
    return undefined;
  }
}
