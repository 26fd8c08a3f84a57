// POST /api/webhooks/stripe: Stripe reports Checkout Sessions and auto-recharge PaymentIntents here. Only a
// signature-verified event counts (400 and nothing credited otherwise).
// * checkout.session.completed / async_payment_succeeded (payment mode) with payment_status `paid` credit the
//   top-up once, with the amount Stripe says was paid, also after the top-up link expired.
// * checkout.session.completed in setup mode saves the card its SetupIntent holds and turns auto-recharge on with
//   the settings the human chose, once per setup.
// * payment_intent.succeeded credits an auto-recharge payment (amount_received) once; payment_intent.payment_failed
//   records the failure on it. The workflow may have credited it from Stripe's synchronous answer already: the
//   payment's own row and its ledger key make whichever comes second credit nothing.
// * transfer.reversed: a payout's transfer taken back (api/webhooks/stripe-transfers.ts).
// A redelivered event answers the same and credits nothing again.
import type Stripe from 'stripe';
import { stripeSettingsOf } from '../../clients/payments/select.js';
import { fundsAvailableOn, savedMethodOfSetup, verifyStripeEvent, type StripeSettings } from '../../clients/payments/stripe.js';
import { completeCardSetup, failCardSetup } from '../../actions/auto-recharge.js';
import { findAutoRechargeSetup } from '../../db/auto-recharge.js';
import { creditTopUp, failTopUp, recordFundsAvailableAt } from '../../actions/top-up.js';
import { findPayment, findPaymentByExternalId } from '../../db/payments.js';
import { BadRequestError, UnavailableError } from '../../errors/http-errors.js';
import type { PaymentRow } from '../../schema/types.js';
import type { AppContext } from '../context.js';
import { checkAutoRecharge } from '../recharge-check.js';
import { TRANSFER_EVENTS, transferEvent } from './stripe-transfers.js';

const CREDITING = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const FAILING = new Set(['checkout.session.async_payment_failed', 'checkout.session.expired']);
const INTENTS = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed']);

async function paymentOf(
  ctx: AppContext,
  externalId: string,
  metadata: Stripe.Metadata | null | undefined,
): Promise<PaymentRow | undefined> {
  const byExternal = await findPaymentByExternalId(ctx.deps.db, 'stripe', externalId);
  if (byExternal) return byExternal;
  // The session (or intent) can complete before we recorded its id: the metadata names the payment.
  const byMetadata = metadata?.payment_id ? await findPayment(ctx.deps.db, metadata.payment_id) : undefined;
  return byMetadata?.provider === 'stripe' ? byMetadata : undefined;
}

export async function stripeWebhook(ctx: AppContext): Promise<void> {
  const settings = stripeSettingsOf(ctx.deps.config);
  if (!settings?.webhookSecret)
    throw new UnavailableError('Stripe webhooks are not configured on this server (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).');
  const event = verifyStripeEvent(settings, ctx.state.rawBody ?? Buffer.alloc(0), ctx.get('stripe-signature') || undefined);
  if (!event) throw new BadRequestError('Invalid Stripe signature: nothing was credited.');
  if (TRANSFER_EVENTS.has(event.type)) return transferEvent(ctx, event);
  if (INTENTS.has(event.type)) return intentEvent(ctx, event.type, event.data.object as Stripe.PaymentIntent);
  if (!CREDITING.has(event.type) && !FAILING.has(event.type)) {
    ctx.body = { received: true, handled: false };
    return;
  }
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.mode === 'setup') return setupEvent(ctx, settings, event.type, session);
  const payment = await paymentOf(ctx, session.id, session.metadata);
  if (!payment) {
    ctx.body = { received: true, handled: false, detail: 'No top-up of this service matches the session.' };
    return;
  }
  if (FAILING.has(event.type)) {
    await failTopUp(ctx.deps, {
      paymentId: payment.id,
      reason: event.type === 'checkout.session.expired' ? 'the checkout expired' : 'the payment failed',
    });
    ctx.body = { received: true, handled: true, payment_id: payment.id, credited: false };
    return;
  }
  if (session.payment_status !== 'paid' || session.currency?.toLowerCase() !== 'usd' || !session.amount_total) {
    ctx.body = { received: true, handled: true, payment_id: payment.id, credited: false, payment_status: session.payment_status };
    return;
  }
  const credit = await creditTopUp(
    { db: ctx.deps.db, checkAutoRecharge: (orgId) => checkAutoRecharge(ctx, orgId) },
    { paymentId: payment.id, amountMicros: session.amount_total * 10_000 },
  );
  await recordAvailability(
    ctx,
    settings,
    payment.id,
    typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id,
  );
  ctx.body = { received: true, handled: true, payment_id: payment.id, credited: credit?.credited ?? false };
}

async function intentEvent(ctx: AppContext, type: string, intent: Stripe.PaymentIntent): Promise<void> {
  const payment = await paymentOf(ctx, intent.id, intent.metadata);
  if (!payment || payment.kind !== 'auto_recharge') {
    ctx.body = { received: true, handled: false, detail: 'No auto-recharge of this service matches the payment intent.' };
    return;
  }
  if (type === 'payment_intent.payment_failed') {
    await failTopUp(ctx.deps, { paymentId: payment.id, reason: intent.last_payment_error?.message ?? 'the payment failed' });
    ctx.body = { received: true, handled: true, payment_id: payment.id, credited: false };
    return;
  }
  if (intent.currency?.toLowerCase() !== 'usd' || !intent.amount_received) {
    ctx.body = { received: true, handled: true, payment_id: payment.id, credited: false };
    return;
  }
  const credit = await creditTopUp({ db: ctx.deps.db }, { paymentId: payment.id, amountMicros: intent.amount_received * 10_000 });
  await recordAvailability(ctx, stripeSettingsOf(ctx.deps.config)!, payment.id, intent.id);
  ctx.body = { received: true, handled: true, payment_id: payment.id, credited: credit?.credited ?? false };
}

/**
 * The top-up's availability date in the platform balance, which payout transfers wait for (activities/payouts.ts).
 * Best effort: the wallet is credited either way, and a payout without a date looks again after
 * PAYOUT_FUNDS_RETRY_SECONDS.
 */
async function recordAvailability(
  ctx: AppContext,
  settings: StripeSettings,
  paymentId: string,
  intentId: string | undefined,
): Promise<void> {
  if (!intentId) return;
  try {
    const at = await fundsAvailableOn(settings, intentId);
    if (at) await recordFundsAvailableAt(ctx.deps, { paymentId, at });
  } catch (err) {
    ctx.deps.logger.warn({ err, paymentId }, "the top-up's availability date could not be read from Stripe");
  }
}

async function setupEvent(ctx: AppContext, settings: StripeSettings, type: string, session: Stripe.Checkout.Session): Promise<void> {
  const setup = await findAutoRechargeSetup(ctx.deps.db, { externalId: session.id, id: session.metadata?.setup_id });
  if (!setup) {
    ctx.body = { received: true, handled: false, detail: 'No auto-recharge setup of this service matches the session.' };
    return;
  }
  if (type !== 'checkout.session.completed') {
    if (type === 'checkout.session.expired') await failCardSetup(ctx.deps, { setupId: setup.id, reason: 'the card setup expired' });
    ctx.body = { received: true, handled: type === 'checkout.session.expired', setup_id: setup.id, enabled_now: false };
    return;
  }
  const intentId = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent?.id;
  // A lookup Stripe cannot answer now is a 503: Stripe delivers the event again later.
  const method = intentId
    ? await savedMethodOfSetup(settings, intentId).catch((err: unknown) => {
        throw new UnavailableError(`Stripe could not be asked for the saved card: ${err instanceof Error ? err.message : 'error'}`);
      })
    : undefined;
  if (!method) {
    ctx.body = { received: true, handled: true, setup_id: setup.id, enabled_now: false, detail: 'The setup saved no card yet.' };
    return;
  }
  const completed = await completeCardSetup(
    { db: ctx.deps.db, checkAutoRecharge: (orgId) => checkAutoRecharge(ctx, orgId) },
    { setupId: setup.id, orgId: setup.org_id, method },
  );
  ctx.body = { received: true, handled: true, setup_id: setup.id, enabled_now: completed };
}
