// The platform endpoint's transfer events (api/webhooks/stripe.ts hands them here), deduplicated on the event id.
// transfer.reversed with the whole amount reversed returns the payout's lines to payable (db/payout-transfers.ts):
// the money is back in the platform balance, so it is back in the wallet. A partial reversal is acknowledged and
// left to a human (handled: false): the ledger cannot say which lines it took back.
import type Stripe from 'stripe';
import { findPayoutByTransfer, returnPayout } from '../../db/payout-transfers.js';
import { markStripeEventHandled, wasStripeEventHandled } from '../../db/stripe-events.js';
import type { AppContext } from '../context.js';

export const TRANSFER_EVENTS = new Set(['transfer.reversed']);

export async function transferEvent(ctx: AppContext, event: Stripe.Event): Promise<void> {
  const db = ctx.deps.db;
  if (await wasStripeEventHandled(db, 'platform', event.id)) {
    ctx.body = { received: true, duplicate: true };
    return;
  }
  const transfer = event.data.object as Stripe.Transfer;
  const payout = await findPayoutByTransfer(db, transfer.id);
  if (!payout) ctx.body = { received: true, handled: false, detail: 'No payout of this service matches the transfer.' };
  else if (transfer.amount_reversed < transfer.amount) {
    ctx.body = { received: true, handled: false, payout_id: payout.id, detail: 'A partial reversal is not applied to the ledger.' };
  } else {
    const returned = await returnPayout(db, payout.id, 'the transfer was reversed');
    ctx.body = { received: true, handled: true, payout_id: payout.id, returned };
  }
  await markStripeEventHandled(db, 'platform', event.id, event.type);
}
