// The one mapping from a payout's transfer state (payouts.transfer_status, migration 0037) to the words every surface
// uses: the run page, the developer's creator page and payouts table with their CSVs, the creator's portal and
// statement, and `svc payouts run` (CONTRACT.md). A returned payout is never "paid": it says so and why.
import type { PayoutTransferStatus } from '../schema/types.js';

/** `sending`: recorded, the transfer not made yet; `paid`: the provider's transfer exists; `settled`: nothing to send. */
export type PayoutStatusWord = 'sending' | 'paid' | 'returned' | 'settled';

export interface PayoutStatus {
  status: PayoutStatusWord;
  /** The words shown to a person, e.g. "returned: nothing was paid (the transfer was reversed)". */
  text: string;
  /** Why it was returned (only when returned). */
  reason?: string;
}

const WORD: Record<PayoutTransferStatus, PayoutStatusWord> = {
  transfer_pending: 'sending',
  transferred: 'paid',
  returned: 'returned',
  settled: 'settled',
};

const TEXT: Record<PayoutStatusWord, string> = {
  sending: 'sending',
  paid: 'paid',
  returned: 'returned: nothing was paid',
  settled: 'settled: nothing to send',
};

export function payoutStatus(p: { transfer_status: PayoutTransferStatus; failure?: string | null }): PayoutStatus {
  const status = WORD[p.transfer_status];
  if (status !== 'returned') return { status, text: TEXT[status] };
  const reason = p.failure ?? 'the payout was returned';
  return { status, text: `${TEXT.returned} (${reason})`, reason };
}
