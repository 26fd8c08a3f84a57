// Payout runs, phase 2 (docs/wallet-and-payouts.md "Two phases"): the one owner of a payout's writes after the run
// recorded it. The payout-run workflow's activities (activities/payouts.ts) record the transfer each payout was sent
// with, settle a payout with nothing to send, and return one the provider refused; the platform's Stripe webhook
// (api/webhooks/stripe-transfers.ts) returns one whose transfer Stripe reversed. Each is one transaction
// (db/payout-transfers-writes.ts) and happens at most once per payout.
import type { Knex } from 'knex';
import { recordTransfer, returnPayout as returnOne, settlePayout } from '../db/payout-transfers-writes.js';
import type { PayoutProviderName } from '../schema/types.js';

export interface PayoutTransferDeps {
  db: Knex;
}

/** The transfer made for a pending payout; answers whether this call recorded it (a repeat records nothing). */
export async function recordPayoutTransfer(
  deps: PayoutTransferDeps,
  input: { payoutId: string; provider: PayoutProviderName; transferId: string },
): Promise<boolean> {
  return deps.db.transaction((trx) => recordTransfer(trx, input.payoutId, input.provider, input.transferId));
}

/** A pending payout with nothing to send (its clawbacks netted the whole gross). */
export async function settleEmptyPayout(deps: PayoutTransferDeps, input: { payoutId: string }): Promise<boolean> {
  return deps.db.transaction((trx) => settlePayout(trx, input.payoutId));
}

/** Returns a pending or transferred payout's lines to payable; answers whether this call returned it. */
export async function returnPayout(deps: PayoutTransferDeps, input: { payoutId: string; reason: string }): Promise<boolean> {
  return deps.db.transaction((trx) => returnOne(trx, input.payoutId, input.reason));
}
