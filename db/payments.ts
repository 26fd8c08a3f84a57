// Wallet top-ups (payments, migration 0018): the reads. The writes (a payment started with the spent top-up link,
// credited at most once with its catch-up, failed, its provider reference and availability date) are
// db/payments-writes.ts, which the top-up actions (actions/top-up.ts) run in their transactions.
import type { Knex } from 'knex';
import type { PaymentProviderName, PaymentRow } from '../schema/types.js';

export async function findPayment(db: Knex, id: string): Promise<PaymentRow | undefined> {
  return db('payments').where('id', id).first<PaymentRow | undefined>();
}

export async function findPaymentByExternalId(
  db: Knex,
  provider: PaymentProviderName,
  externalId: string,
): Promise<PaymentRow | undefined> {
  return db('payments').where({ provider, external_id: externalId }).first<PaymentRow | undefined>();
}

/** The earliest availability date still ahead among the organization's credited top-ups: when waiting funds may clear. */
export async function nextFundsAvailableAt(db: Knex, orgId: string, now: Date): Promise<Date | undefined> {
  const row = await db('payments')
    .where({ org_id: orgId, status: 'succeeded' })
    .where('available_at', '>', now)
    .min<{ at: Date | null }>('available_at as at')
    .first();
  return row?.at ? new Date(row.at) : undefined;
}
