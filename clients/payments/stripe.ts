// Stripe Checkout through the `stripe` package: a Checkout Session in payment mode for the chosen amount, and the
// signature check of the webhook that reports it paid. STRIPE_API_ROOT points the client at a local stub in tests.
// Auto-recharge: a Checkout Session in setup mode saves a card on the organization's Customer; each recharge is an
// off-session PaymentIntent (`confirm: true, off_session: true`) whose idempotency key names our payment, so a
// retried call returns the first PaymentIntent instead of charging again.
import Stripe from 'stripe';
import { PaymentProviderError, type ChargeOutcome, type PaymentProvider, type RechargeProvider, type SavedMethod } from './provider.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string | undefined;
  apiRoot: string | undefined;
}

export function stripeClient(settings: StripeSettings): Stripe {
  const root = settings.apiRoot ? new URL(settings.apiRoot) : undefined;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(root
      ? {
          host: root.hostname,
          port: Number(root.port || (root.protocol === 'https:' ? 443 : 80)),
          protocol: root.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

/** Stripe's own words for a refused call, never the key (its errors do not carry it). */
function refusal(err: unknown, what: string): PaymentProviderError {
  if (err instanceof PaymentProviderError) return err;
  return new PaymentProviderError(`Stripe refused the ${what}: ${err instanceof Error ? err.message : 'error'}`);
}

/** Card errors (declined, authentication required) and invalid requests (method detached) will fail again. */
function isPermanent(err: unknown): err is Stripe.errors.StripeError {
  return err instanceof Stripe.errors.StripeError && (err.rawType === 'card_error' || err.rawType === 'invalid_request_error');
}

function chargeOutcome(intent: Stripe.PaymentIntent): ChargeOutcome {
  if (intent.status === 'succeeded') return { status: 'succeeded', externalId: intent.id, amountMicros: intent.amount_received * 10_000 };
  if (intent.status === 'processing') return { status: 'processing', externalId: intent.id };
  return {
    status: 'declined',
    externalId: intent.id,
    reason: intent.last_payment_error?.message ?? `the payment needs action (${intent.status})`,
  };
}

export function stripeProvider(settings: StripeSettings): PaymentProvider & RechargeProvider {
  const stripe = stripeClient(settings);
  return {
    name: 'stripe',
    label: 'Payment by card through Stripe Checkout.',
    async startCheckout(r) {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: 'usd', unit_amount: Math.round(r.amountMicros / 10_000), product_data: { name: 'Wallet top-up' } },
              },
            ],
            client_reference_id: r.paymentId,
            metadata: { payment_id: r.paymentId, org_id: r.orgId },
            success_url: r.successUrl,
            cancel_url: r.cancelUrl,
          },
          { idempotencyKey: `checkout:${r.paymentId}` },
        );
        if (!session.url) throw new PaymentProviderError('Stripe returned a session without a URL');
        return { kind: 'redirect', url: session.url, externalId: session.id };
      } catch (err) {
        // Stripe's error names the problem without the key; keep only its message.
        throw refusal(err, 'checkout');
      }
    },
    async startSetup(r) {
      try {
        const customerId =
          r.customerId ??
          (
            await stripe.customers.create(
              { metadata: { org_id: r.orgId }, description: `svc organization ${r.orgId}` },
              { idempotencyKey: `customer:${r.setupId}` },
            )
          ).id;
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'setup',
            currency: 'usd',
            customer: customerId,
            client_reference_id: r.setupId,
            metadata: { setup_id: r.setupId, org_id: r.orgId },
            setup_intent_data: { metadata: { setup_id: r.setupId, org_id: r.orgId } },
            success_url: r.successUrl,
            cancel_url: r.cancelUrl,
          },
          { idempotencyKey: `setup:${r.setupId}` },
        );
        if (!session.url) throw new PaymentProviderError('Stripe returned a session without a URL');
        return { kind: 'redirect', url: session.url, externalId: session.id, customerId };
      } catch (err) {
        throw refusal(err, 'card setup');
      }
    },
    async charge(r) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: Math.round(r.amountMicros / 10_000),
            currency: 'usd',
            customer: r.method.customerId ?? undefined,
            payment_method: r.method.paymentMethodId,
            confirm: true,
            off_session: true,
            description: 'Wallet auto-recharge',
            metadata: { payment_id: r.paymentId, org_id: r.orgId, kind: 'auto_recharge' },
          },
          { idempotencyKey: r.idempotencyKey },
        );
        return chargeOutcome(intent);
      } catch (err) {
        if (isPermanent(err)) return { status: 'declined', externalId: err.payment_intent?.id ?? null, reason: err.message };
        throw refusal(err, 'charge');
      }
    },
  };
}

/** The card a completed setup-mode Checkout Session saved: its SetupIntent's PaymentMethod, labelled for the page. */
export async function savedMethodOfSetup(settings: StripeSettings, setupIntentId: string): Promise<SavedMethod | undefined> {
  const stripe = stripeClient(settings);
  try {
    const intent = await stripe.setupIntents.retrieve(setupIntentId);
    const methodId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
    if (intent.status !== 'succeeded' || !methodId) return undefined;
    const method = await stripe.paymentMethods.retrieve(methodId);
    const customerId = typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null);
    const label = method.card ? `${method.card.brand} card ending in ${method.card.last4}` : method.type;
    return { customerId, paymentMethodId: methodId, label };
  } catch (err) {
    throw refusal(err, 'setup lookup');
  }
}

/**
 * When a paid PaymentIntent's funds become available in the platform balance: its charge's balance transaction's
 * `available_on` (Stripe settles card payments days after the payment). Undefined when Stripe does not say yet.
 */
export async function fundsAvailableOn(settings: StripeSettings, paymentIntentId: string): Promise<Date | undefined> {
  try {
    const intent = await stripeClient(settings).paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge.balance_transaction'] });
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const tx = charge && typeof charge.balance_transaction === 'object' ? charge.balance_transaction : null;
    return tx?.available_on ? new Date(tx.available_on * 1000) : undefined;
  } catch (err) {
    throw refusal(err, 'balance transaction lookup');
  }
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
