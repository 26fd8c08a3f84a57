// lib/balance-check.ts: the daily balance check's arithmetic, each part of the expected gap and each way a payout's
// transferred cents can differ from what it should have sent.
import test from 'ava';
import { balanceFigures } from '../../lib/balance-check.js';

const payout = (id: string, transferStatus: string, netMicros: number, feesMicros: number) => ({
  id,
  transferStatus,
  netMicros,
  feesMicros,
});
const sent = (payoutId: string, amountMicros: number, reversedMicros = 0) => ({
  payoutId,
  transferId: `tr_${payoutId}`,
  amountMicros,
  reversedMicros,
});

test('the gap is explained by platform fees and unsent nets less processing fees; nothing else is unexplained', (t) => {
  const figures = balanceFigures({
    walletsMicros: 80_000_000,
    // 100.00 charged less 3.20 of Stripe's fee, 10.00 transferred; 5.00 recorded but not sent yet.
    platformMicros: 86_800_000,
    payouts: [payout('p1', 'transferred', 10_000_000, 1_000_000), payout('p2', 'transfer_pending', 5_000_000, 500_000)],
    sent: [sent('p1', 10_000_000)],
    processingFeesMicros: 3_200_000,
  });
  t.deepEqual(figures, {
    walletsMicros: 80_000_000,
    platformMicros: 86_800_000,
    gapMicros: 6_800_000,
    expectedMicros: 1_500_000 + 5_000_000 - 3_200_000,
    platformFeesMicros: 1_500_000,
    unsentPayoutsMicros: 5_000_000,
    processingFeesMicros: 3_200_000,
    unexplainedMicros: 6_800_000 - 3_300_000,
    mismatchedPayouts: [],
  });
});

test('a payout whose cents differ, one recorded transferred with no transfer, and a returned one not reversed whole are named', (t) => {
  const { mismatchedPayouts } = balanceFigures({
    walletsMicros: 0,
    platformMicros: 0,
    payouts: [
      payout('short', 'transferred', 10_000_000, 0),
      payout('none', 'transferred', 1_000_000, 0),
      payout('ok', 'transferred', 2_000_000, 0),
    ],
    sent: [sent('short', 9_990_000), sent('ok', 2_000_000), sent('returned', 3_000_000, 1_000_000), sent('reversed', 4_000_000, 4_000_000)],
    processingFeesMicros: 0,
  });
  t.deepEqual(mismatchedPayouts, [
    { payoutId: 'short', netMicros: 10_000_000, transferredMicros: 9_990_000 },
    { payoutId: 'none', netMicros: 1_000_000, transferredMicros: 0 },
    { payoutId: 'returned', netMicros: 0, transferredMicros: 2_000_000 },
  ]);
});

test('a pending payout whose transfer already exists is not counted as unsent', (t) => {
  const figures = balanceFigures({
    walletsMicros: 0,
    platformMicros: 0,
    payouts: [payout('p', 'transfer_pending', 5_000_000, 0)],
    sent: [sent('p', 5_000_000)],
    processingFeesMicros: 0,
  });
  t.is(figures.unsentPayoutsMicros, 0);
});
