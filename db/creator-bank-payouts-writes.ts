// A connected account's payout to the creator's bank as the Connect webhook reports it (db/creator-bank-payouts.ts
// says what it is): recorded once per payout id, its status, failure and arrival updated by later reports.
import type { Knex } from 'knex';

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
