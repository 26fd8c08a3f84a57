import { MICROS_PER_CENT, mulDivRound } from './money.js';

// Commission maths in integer micro-USD, each amount created in whole cents by lib/money.ts's one rule (half away
// from zero, once, from the exact product). The platform fee is PLATFORM_FEE_PERCENT of the commission as rounded,
// charged to the developer on top of it: the wallet reserves commission + fee for every paid production purchase.
// Revenue stays as priced (a converted store price may have fractions of a cent): it moves no money.

/** A percentage such as 30 or 12.5 (numeric(6,3)) as thousandths of a percent, exactly. */
export function percentToMilli(percentage: number | string): bigint {
  const text = typeof percentage === 'number' ? percentage.toFixed(3) : percentage;
  const [whole = '0', frac = ''] = text.split('.');
  return BigInt(whole) * 1000n + BigInt((frac + '000').slice(0, 3));
}

export interface CommissionAmounts {
  revenueMicros: number;
  commissionMicros: number;
  platformFeeMicros: number;
  reserveMicros: number;
}

export function computeCommission(
  revenueMicros: number,
  commissionPercentage: number | string,
  platformFeePercent: number,
): CommissionAmounts {
  const commissionMicros = mulDivRound(revenueMicros, percentToMilli(commissionPercentage), 100_000n, MICROS_PER_CENT);
  const platformFeeMicros = mulDivRound(commissionMicros, percentToMilli(platformFeePercent), 100_000n, MICROS_PER_CENT);
  return { revenueMicros, commissionMicros, platformFeeMicros, reserveMicros: commissionMicros + platformFeeMicros };
}
