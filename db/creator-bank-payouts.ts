// A connected account's own payouts to the creator's bank (creator_bank_payouts, migration 0037), reported by the
// Connect webhook (payout.paid / payout.failed). Shown to the creator; never part of our ledger: the money left our
// books with the transfer, and a failed bank payout stays in the creator's Stripe balance.
import type { Knex } from 'knex';
import type { CreatorBankPayoutRow } from '../schema/types.js';

export interface BankPayout {
  id: string;
  creatorId: string;
  amountMicros: number;
  currency: string;
  status: string;
  failureMessage: string | null;
  arrivalAt: Date | null;
}

export async function recordBankPayout(db: Knex, p: BankPayout): Promise<void> {
  await db('creator_bank_payouts')
    .insert({
      id: p.id,
      creator_id: p.creatorId,
      amount_micros: p.amountMicros,
      currency: p.currency,
      status: p.status,
      failure_message: p.failureMessage,
      arrival_at: p.arrivalAt,
    })
    .onConflict('id')
    .merge(['status', 'failure_message', 'arrival_at', 'updated_at']);
}

export async function bankPayoutsOfCreator(db: Knex, creatorId: string, limit = 20): Promise<CreatorBankPayoutRow[]> {
  return db('creator_bank_payouts')
    .where('creator_id', creatorId)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .select<CreatorBankPayoutRow[]>('*');
}
