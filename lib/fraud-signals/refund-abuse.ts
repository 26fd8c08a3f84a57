// refund_abuse: a creator whose purchases are refunded far more often than the rest of the app's, over enough
// purchases to tell. The caller counts over REFUND_ABUSE_WINDOW_DAYS (and again when a held commission's holding
// period ends, when more refunds are known). The rule is a one-sided two-proportion z-test with floors:
//  - the creator has at least REFUND_ABUSE_MIN_PURCHASES purchases and REFUND_ABUSE_MIN_REFUNDS refunds, and the
//    rest of the app at least REFUND_ABUSE_MIN_BASELINE_PURCHASES (below these the normal approximation behind the
//    test is poor and one or two refunds decide: no signal);
//  - the creator's rate is at least REFUND_ABUSE_MIN_RATE_RATIO times the baseline (on a large app a test alone
//    calls 6 % against 5 % "significant": the ratio keeps the signal to what "far above" means);
//  - z >= REFUND_ABUSE_MIN_Z (one-sided p < 0.001: with dozens of creators per app, a looser level would flag an
//    honest creator by chance every few reviews).
// Why not a ratio alone: 3 refunds of 10 and 30 of 100 have the same ratio and very different certainty; the test
// weighs the sample, the floors keep it where it is sound. The baseline is the app's purchases without the
// creator's, so one large creator does not set its own bar.
// False positives: a creator whose audience is young or far from the app's usual market (family-sharing refunds,
// "bought by mistake"); a creator who promoted a launch that then broke. The evidence gives both rates to judge by.
import type { FraudSignal } from './types.js';
import { percent } from './words.js';

export const REFUND_ABUSE_WINDOW_DAYS = 90;
export const REFUND_ABUSE_MIN_PURCHASES = 10;
export const REFUND_ABUSE_MIN_REFUNDS = 3;
export const REFUND_ABUSE_MIN_BASELINE_PURCHASES = 30;
export const REFUND_ABUSE_MIN_RATE_RATIO = 2;
export const REFUND_ABUSE_MIN_Z = 3.09;

export interface RefundCounts {
  purchases: number;
  refunds: number;
}

export interface RefundAbuseFacts {
  /** The creator's attributed purchases in the window and how many of them were refunded. */
  creator: RefundCounts;
  /** The app's purchases in the same window, the creator's included (the baseline is the rest). */
  app: RefundCounts;
}

/** The z statistic of the creator's rate above the baseline's (pooled two-proportion test); 0 when undefined. */
export function refundZ(creator: RefundCounts, rest: RefundCounts): number {
  const pooled = (creator.refunds + rest.refunds) / (creator.purchases + rest.purchases);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / creator.purchases + 1 / rest.purchases));
  if (!(se > 0)) return 0;
  return (creator.refunds / creator.purchases - rest.refunds / rest.purchases) / se;
}

const n = (v: number) => v.toLocaleString('en-US');

export function refundAbuse(f: RefundAbuseFacts): FraudSignal | null {
  const { creator } = f;
  const rest = { purchases: f.app.purchases - creator.purchases, refunds: f.app.refunds - creator.refunds };
  if (creator.purchases < REFUND_ABUSE_MIN_PURCHASES || creator.refunds < REFUND_ABUSE_MIN_REFUNDS) return null;
  if (rest.purchases < REFUND_ABUSE_MIN_BASELINE_PURCHASES || rest.refunds < 0) return null;
  const rate = creator.refunds / creator.purchases;
  const baseline = rest.refunds / rest.purchases;
  if (rate < REFUND_ABUSE_MIN_RATE_RATIO * baseline || refundZ(creator, rest) < REFUND_ABUSE_MIN_Z) return null;
  return {
    signal: 'refund_abuse',
    evidence:
      `${n(creator.refunds)} of ${n(creator.purchases)} purchases through this creator were refunded (${percent(rate)}) ` +
      `in ${REFUND_ABUSE_WINDOW_DAYS} days, against ${percent(baseline)} for the app's other purchases ` +
      `(${n(rest.refunds)} of ${n(rest.purchases)}); a gap this size is very unlikely by chance.`,
  };
}
