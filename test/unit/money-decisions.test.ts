// The wallet's business decisions as pure functions, each case one row of a table: funded or unfunded
// (lib/funding.ts, the earn and the top-up catch-up), whether the earn left the wallet below its auto-recharge
// threshold, and reverse or claw back (lib/take-back.ts, a refund's take-back). Held over or paid is
// test/unit/payout-holdover.test.ts.
import test from 'ava';
import { fundingOf, walletLowAfter, type Funding } from '../../lib/funding.js';
import { takeBackOf, type TakeBack } from '../../lib/take-back.js';
import type { CommissionStatus } from '../../schema/types.js';

const funding: [string, number, number, Funding][] = [
  ['safe balance above the reservation', 10_000_000, 2_000_000, 'reserved'],
  ['safe balance exactly the reservation', 2_000_000, 2_000_000, 'reserved'],
  ['safe balance one micro short', 1_999_999, 2_000_000, 'unfunded'],
  ['empty wallet', 0, 2_000_000, 'unfunded'],
  ['overdrawn safe balance', -5_000_000, 1, 'unfunded'],
  ['a zero reservation on an empty wallet', 0, 0, 'reserved'],
];
for (const [name, safe, reserve, expected] of funding)
  test(`funding: ${name}`, (t) => {
    t.is(fundingOf(safe, reserve), expected);
  });

const low: [string, number, Funding, number, number | null, boolean][] = [
  ['auto-recharge off', 1_000_000, 'reserved', 900_000, null, false],
  ['reserved, stays at the threshold', 10_000_000, 'reserved', 5_000_000, 5_000_000, false],
  ['reserved, drops below', 10_000_000, 'reserved', 5_000_001, 5_000_000, true],
  ['unfunded: nothing reserved, already below', 1_000_000, 'unfunded', 2_000_000, 5_000_000, true],
  ['unfunded: nothing reserved, above', 6_000_000, 'unfunded', 9_000_000, 5_000_000, false],
];
for (const [name, safe, f, reserve, below, expected] of low)
  test(`wallet low after the earn: ${name}`, (t) => {
    t.is(walletLowAfter(safe, f, reserve, below), expected);
  });

const takeBack: [CommissionStatus, boolean, TakeBack][] = [
  ['reserved', true, 'reversed'],
  ['reserved', false, 'reduced'],
  ['unfunded', true, 'reversed'],
  ['unfunded', false, 'reduced'],
  ['simulated', true, 'reversed'],
  ['simulated', false, 'reduced'],
  ['payable', true, 'clawback'],
  ['payable', false, 'clawback'],
  ['paid', true, 'clawback'],
  ['paid', false, 'clawback'],
];
for (const [status, whole, expected] of takeBack)
  test(`take-back: ${status}, ${whole ? 'whole' : 'part'} refund → ${expected}`, (t) => {
    t.is(takeBackOf(status, whole), expected);
  });
