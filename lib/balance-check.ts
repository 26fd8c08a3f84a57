// The daily balance check's arithmetic (docs/wallet-and-payouts.md "Cents"): the platform's balance at the provider
// minus the sum of the wallets is the gap; of it, this much is expected:
// * + the platform fees of every payout not returned: they left the wallets with the commissions but stay with the
//   platform (its revenue);
// * + the nets of payouts recorded but not yet sent (transfer_pending, no transfer at the provider): they left the
//   wallets, not yet the platform balance;
// * - the provider's processing fees (Stripe's balance transactions' `fee`): a top-up credits the wallet its whole
//   amount, the platform balance receives it less the fee.
// The rest is unexplained. Every payout whose transferred cents (less any reversed) differ from what it should have
// sent (its net when transferred, nothing when returned) is named.
import type { SentTransfer } from './payout-account.js';

export interface PayoutMoneyOfRecord {
  id: string;
  transferStatus: string;
  netMicros: number;
  feesMicros: number;
}

export interface MismatchedPayout {
  payoutId: string;
  netMicros: number;
  transferredMicros: number;
}

export interface BalanceFigures {
  walletsMicros: number;
  platformMicros: number;
  gapMicros: number;
  expectedMicros: number;
  platformFeesMicros: number;
  unsentPayoutsMicros: number;
  processingFeesMicros: number;
  unexplainedMicros: number;
  mismatchedPayouts: MismatchedPayout[];
}

export function balanceFigures(input: {
  walletsMicros: number;
  platformMicros: number;
  payouts: PayoutMoneyOfRecord[];
  sent: SentTransfer[];
  processingFeesMicros: number;
}): BalanceFigures {
  const sentBy = new Map<string, number>();
  for (const s of input.sent) sentBy.set(s.payoutId, (sentBy.get(s.payoutId) ?? 0) + s.amountMicros - s.reversedMicros);
  const ours = new Map(input.payouts.map((p) => [p.id, p]));
  const platformFeesMicros = input.payouts.reduce((sum, p) => sum + p.feesMicros, 0);
  const unsentPayoutsMicros = input.payouts
    .filter((p) => p.transferStatus === 'transfer_pending' && !sentBy.has(p.id))
    .reduce((sum, p) => sum + p.netMicros, 0);
  const mismatchedPayouts: MismatchedPayout[] = [];
  for (const p of input.payouts)
    if (p.transferStatus === 'transferred' && (sentBy.get(p.id) ?? 0) !== p.netMicros)
      mismatchedPayouts.push({ payoutId: p.id, netMicros: p.netMicros, transferredMicros: sentBy.get(p.id) ?? 0 });
  // A transfer of a payout that is returned (or not ours any more) should have been reversed whole.
  for (const [payoutId, micros] of sentBy)
    if (!ours.has(payoutId) && micros !== 0) mismatchedPayouts.push({ payoutId, netMicros: 0, transferredMicros: micros });
  const gapMicros = input.platformMicros - input.walletsMicros;
  const expectedMicros = platformFeesMicros + unsentPayoutsMicros - input.processingFeesMicros;
  return {
    walletsMicros: input.walletsMicros,
    platformMicros: input.platformMicros,
    gapMicros,
    expectedMicros,
    platformFeesMicros,
    unsentPayoutsMicros,
    processingFeesMicros: input.processingFeesMicros,
    unexplainedMicros: gapMicros - expectedMicros,
    mismatchedPayouts,
  };
}
