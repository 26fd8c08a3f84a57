// POST /api/webhooks/stripe-connect: Stripe's Connect endpoint, events of the creators' connected accounts, signed
// with STRIPE_CONNECT_WEBHOOK_SECRET (anything else is 400 and changes nothing), deduplicated on the event id.
// * account.updated: the account's readiness as Stripe now reports it (lib/payout-readiness.ts decides).
// * payout.paid / payout.failed: the connected account's payout to the creator's bank, recorded to show the creator;
//   never a change to our ledger (the transfer already left it; a failed bank payout stays in their Stripe balance).
import type Stripe from 'stripe';
import { stripeSettingsOf } from '../../clients/payments/select.js';
import { verifyStripeEvent } from '../../clients/payments/stripe.js';
import { stateOfStripeAccount } from '../../clients/payouts/stripe.js';
import { applyAccountUpdate, recordCreatorBankPayout } from '../../actions/payout-accounts.js';
import { handleStripeEventOnce } from '../../actions/stripe-events.js';
import { creatorOfAccount } from '../../db/payout-accounts.js';
import { BadRequestError, UnavailableError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';

export async function stripeConnectWebhook(ctx: AppContext): Promise<void> {
  const settings = stripeSettingsOf(ctx.deps.config);
  const secret = ctx.deps.config.STRIPE_CONNECT_WEBHOOK_SECRET;
  if (!settings || !secret)
    throw new UnavailableError(
      'Stripe Connect webhooks are not configured on this server (STRIPE_SECRET_KEY, STRIPE_CONNECT_WEBHOOK_SECRET).',
    );
  const event = verifyStripeEvent(
    { ...settings, webhookSecret: secret },
    ctx.state.rawBody ?? Buffer.alloc(0),
    ctx.get('stripe-signature') || undefined,
  );
  if (!event) throw new BadRequestError('Invalid Stripe signature: nothing was changed.');
  const once = await handleStripeEventOnce(ctx.deps, { endpoint: 'connect', id: event.id, type: event.type }, () => handle(ctx, event));
  ctx.body = once.duplicate ? { received: true, duplicate: true } : once.result;
}

async function handle(ctx: AppContext, event: Stripe.Event): Promise<Record<string, unknown>> {
  const db = ctx.deps.db;
  if (event.type === 'account.updated') {
    const account = event.data.object;
    const creatorId = await applyAccountUpdate(ctx.deps, {
      provider: 'stripe',
      externalId: account.id,
      state: stateOfStripeAccount(account),
    });
    return { received: true, handled: Boolean(creatorId) };
  }
  if (event.type === 'payout.paid' || event.type === 'payout.failed') {
    const payout = event.data.object;
    const creatorId = event.account ? await creatorOfAccount(db, 'stripe', event.account) : undefined;
    if (!creatorId) return { received: true, handled: false, detail: 'No creator of this service holds the account.' };
    await recordCreatorBankPayout(ctx.deps, {
      id: payout.id,
      creatorId,
      amountMicros: payout.amount * 10_000,
      currency: payout.currency,
      status: payout.status,
      failureMessage: payout.failure_message ?? null,
      arrivalAt: payout.arrival_date ? new Date(payout.arrival_date * 1000) : null,
    });
    return { received: true, handled: true };
  }
  return { received: true, handled: false };
}
