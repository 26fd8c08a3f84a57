// What the daily balance check (activities/payouts.ts checkPlatformBalance) reads of our books besides the wallets:
// the payouts whose money has left the wallets, by transfer state.
import type { Knex } from 'knex';
import type { PayoutMoneyOfRecord } from '../lib/balance-check.js';

/** Every payout that is not returned (a returned payout moved nothing for good): its net, fees and transfer state. */
export async function payoutsNotReturned(db: Knex): Promise<PayoutMoneyOfRecord[]> {
  const rows = await db('payouts')
    .whereNot('transfer_status', 'returned')
    .select<{ id: string; transfer_status: string; net_micros: number; fees_micros: number }[]>(
      'id',
      'transfer_status',
      'net_micros',
      'fees_micros',
    );
  return rows.map((r) => ({
    id: r.id,
    transferStatus: r.transfer_status,
    netMicros: Number(r.net_micros),
    feesMicros: Number(r.fees_micros),
  }));
}
