// The platform endpoint's transfer events (api/webhooks/stripe.ts hands them here), deduplicated on the event id.
// transfer.reversed with the whole amount reversed returns the payout's lines to payable (db/payout-transfers.ts):
// the money is back in the platform balance, so it is back in the wallet. A partial reversal is acknowledged and
// left to a human (handled: false): the ledger cannot say which lines it took back.
import type Stripe from 'stripe';
import { returnPayout } from '../../actions/payout-transfers.js';
import { handleStripeEventOnce } from '../../actions/stripe-events.js';
import { findPayoutByTransfer } from '../../db/payout-transfers.js';
import type { AppContext } from '../context.js';

export const TRANSFER_EVENTS = new Set(['transfer.reversed']);

export async function transferEvent(ctx: AppContext, event: Stripe.Event): Promise<void> {
  const once = await handleStripeEventOnce(ctx.deps, { endpoint: 'platform', id: event.id, type: event.type }, async () => {
    const transfer = event.data.object as Stripe.Transfer;
    const payout = await findPayoutByTransfer(ctx.deps.db, transfer.id);
    if (!payout) return { received: true, handled: false, detail: 'No payout of this service matches the transfer.' };
    if (transfer.amount_reversed < transfer.amount)
      return { received: true, handled: false, payout_id: payout.id, detail: 'A partial reversal is not applied to the ledger.' };
    const returned = await returnPayout(ctx.deps, { payoutId: payout.id, reason: 'the transfer was reversed' });
    return { received: true, handled: true, payout_id: payout.id, returned };
  });
  ctx.body = once.duplicate ? { received: true, duplicate: true } : once.result;
}
