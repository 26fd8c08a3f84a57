// POST /api/webhooks/stripe: Stripe reports Checkout Sessions here. Only a signature-verified event counts (400 and
// nothing credited otherwise); checkout.session.completed and checkout.session.async_payment_succeeded with
// payment_status `paid` credit the payment once, with the amount Stripe says was paid, also after the top-up link
// expired. A redelivered event answers the same and credits nothing again.
import type Stripe from 'stripe';
import { verifyStripeEvent } from '../../clients/payments/stripe.js';
import { creditPayment, findPayment, findPaymentByExternalId, markPaymentFailed } from '../../db/payments.js';
import { BadRequestError, UnavailableError } from '../../lib/errors.js';
import type { PaymentRow } from '../../schema/types.js';
import type { AppContext } from '../context.js';
import { stripeSettingsOf } from '../../clients/payments/select.js';

const CREDITING = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const FAILING = new Set(['checkout.session.async_payment_failed', 'checkout.session.expired']);

async function paymentOf(ctx: AppContext, session: Stripe.Checkout.Session): Promise<PaymentRow | undefined> {
  const bySession = await findPaymentByExternalId(ctx.deps.db, 'stripe', session.id);
  if (bySession) return bySession;
  // The session can complete before our redirect step recorded its id: the metadata names the payment.
  const byMetadata = session.metadata?.payment_id ? await findPayment(ctx.deps.db, session.metadata.payment_id) : undefined;
  return byMetadata?.provider === 'stripe' ? byMetadata : undefined;
}

export async function stripeWebhook(ctx: AppContext): Promise<void> {
  const settings = stripeSettingsOf(ctx.deps.config);
  if (!settings?.webhookSecret) throw new UnavailableError('Stripe webhooks are not configured on this server (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).');
  const event = verifyStripeEvent(settings, ctx.state.rawBody ?? Buffer.alloc(0), ctx.get('stripe-signature') || undefined);
  if (!event) throw new BadRequestError('Invalid Stripe signature: nothing was credited.');
  if (!CREDITING.has(event.type) && !FAILING.has(event.type)) {
    ctx.body = { received: true, handled: false };
    return;
  }
  const session = event.data.object as Stripe.Checkout.Session;
  const payment = await paymentOf(ctx, session);
  if (!payment) {
    ctx.body = { received: true, handled: false, detail: 'No top-up of this service matches the session.' };
    return;
  }
  if (FAILING.has(event.type)) {
    await markPaymentFailed(ctx.deps.db, payment.id, event.type === 'checkout.session.expired' ? 'the checkout expired' : 'the payment failed');
    ctx.body = { received: true, handled: true, payment_id: payment.id, credited: false };
    return;
  }
  if (session.payment_status !== 'paid' || session.currency?.toLowerCase() !== 'usd' || !session.amount_total) {
    ctx.body = { received: true, handled: true, payment_id: payment.id, credited: false, payment_status: session.payment_status };
    return;
  }
  const credit = await creditPayment(ctx.deps.db, payment.id, session.amount_total * 10_000);
  ctx.body = { received: true, handled: true, payment_id: payment.id, credited: credit?.credited ?? false };
}
