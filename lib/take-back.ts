// How a refund takes back an earn (docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"): within its
// holding period (`reserved`, `unfunded`, or a sandbox earn) it is reversed and its reservation released, and a
// partial refund leaves a remainder earned again (`reduced`); once released (`payable` or `paid`) it keeps its state
// and the creator owes the part back: a clawback, which the next payout nets. db/commission-holding.ts applies it.
import type { CommissionStatus } from '../schema/types.js';

export type TakeBack = 'reversed' | 'reduced' | 'clawback';

/** `whole`: the refund takes everything that stands of the earn. */
export const takeBackOf = (status: CommissionStatus, whole: boolean): TakeBack =>
  status === 'payable' || status === 'paid' ? 'clawback' : whole ? 'reversed' : 'reduced';
