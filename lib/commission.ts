// Commission maths in integer micro-USD. One rounding rule (half away from zero) applied once per amount.
// The platform fee is PLATFORM_FEE_PERCENT of the commission, charged to the developer on top of it: the wallet
// reserves commission + fee for every paid production purchase.

/** round(value * numerator / denominator), half away from zero, exact for any safe integers. */
export function mulDivRound(value: number, numerator: bigint, denominator: bigint): number {
  const product = BigInt(value) * numerator;
  const sign = product < 0n ? -1n : 1n;
  const abs = product * sign;
  const q = (abs * 2n + denominator) / (2n * denominator);
  return Number(q * sign);
}

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
  const commissionMicros = mulDivRound(revenueMicros, percentToMilli(commissionPercentage), 100_000n);
  const platformFeeMicros = mulDivRound(commissionMicros, percentToMilli(platformFeePercent), 100_000n);
  return { revenueMicros, commissionMicros, platformFeeMicros, reserveMicros: commissionMicros + platformFeeMicros };
}
