// A connected account's own payouts to the creator's bank (creator_bank_payouts, migration 0037), reported by the
// Connect webhook (payout.paid / payout.failed). Shown to the creator; never part of our ledger: the money left our
// books with the transfer, and a failed bank payout stays in the creator's Stripe balance. The write is
// db/creator-bank-payouts-writes.ts.
import type { Knex } from 'knex';
import type { CreatorBankPayoutRow } from '../schema/types.js';

export async function bankPayoutsOfCreator(db: Knex, creatorId: string, limit = 20): Promise<CreatorBankPayoutRow[]> {
  return db('creator_bank_payouts')
    .where('creator_id', creatorId)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .select<CreatorBankPayoutRow[]>('*');
}
