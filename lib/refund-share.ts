// Partial refunds, pure rules (docs/purchase-pipeline.md "Refunds"): which share of a transaction a refund names,
// and what of that transaction's commission it takes back or a refund reversal gives back. A store names the
// CUMULATIVE share refunded (App Store revocationPercentage: "of the transaction that the App Store has refunded"),
// so every amount here is computed from the transaction's first earn (its base) and the share, rounded once per
// amount, never from a previous partial amount: two refunds add up to exactly what one refund of the sum would take,
// and a whole refund takes exactly the base, never more. Commission and fee shares are whole cents (lib/money.ts's
// one rule): the cumulative amount taken is the base's share rounded to the cent, each take its difference.
import { MICROS_PER_CENT, mulDivRound } from './money.js';

/** The share of a transaction a refund names: `refunded` of `of` (App Store: milliunits of 100,000). */
export interface RefundShare {
  refunded: number;
  of: number;
}

/** The three amounts of a commission row, in micro-USD. */
export interface CommissionMoney {
  revenueMicros: number;
  commissionMicros: number;
  platformFeeMicros: number;
}

const FIELDS = ['revenueMicros', 'commissionMicros', 'platformFeeMicros'] as const;
const ZERO: CommissionMoney = { revenueMicros: 0, commissionMicros: 0, platformFeeMicros: 0 };
const map = (f: (k: (typeof FIELDS)[number]) => number): CommissionMoney => ({
  revenueMicros: f('revenueMicros'),
  commissionMicros: f('commissionMicros'),
  platformFeeMicros: f('platformFeeMicros'),
});

const APPLE_WHOLE_MILLI = 100_000;

/**
 * The App Store transaction's refunded share (JWSTransactionDecodedPayload): `revocationPercentage` in milliunits
 * (50000 = 50%; for a quantity above 1 it already covers the whole quantity: 1 of 3 is 33333). Undefined means the
 * whole transaction: REFUND_FULL, no percentage (older payloads), or 100%.
 */
export function appleRefundShare(tx: { revocationType?: string; revocationPercentage?: number }): RefundShare | undefined {
  const p = tx.revocationPercentage;
  if (tx.revocationType === 'REFUND_FULL' || typeof p !== 'number' || !Number.isInteger(p) || p >= APPLE_WHOLE_MILLI) return undefined;
  return { refunded: Math.max(0, p), of: APPLE_WHOLE_MILLI };
}

/** Whether the share is the whole transaction (no share given, or refunded >= of). */
export function isWholeShare(share: RefundShare | null | undefined): boolean {
  return !share || share.refunded >= share.of;
}

/**
 * micros × refunded / of, rounded half away from zero to a multiple of `unitMicros` (lib/money.ts's rule), exact in
 * integers.
 */
export function shareOfMicros(micros: number, share: RefundShare, unitMicros = 1): number {
  if (isWholeShare(share)) return micros;
  return mulDivRound(micros, BigInt(share.refunded), BigInt(share.of), unitMicros);
}

/** The unit each amount's share is rounded to: money in cents, revenue (moves no money) in micros. */
const UNIT: Record<(typeof FIELDS)[number], number> = {
  revenueMicros: 1,
  commissionMicros: MICROS_PER_CENT,
  platformFeeMicros: MICROS_PER_CENT,
};

/**
 * What a refund of the cumulative `share` takes back now, given the transaction's base (first earn) and what is
 * still live of it (earned minus reversed): the live amount above what the share leaves, never below zero, never more
 * than is live. A redelivery or a smaller share takes nothing.
 */
export function stillToTakeBack(base: CommissionMoney, live: CommissionMoney, share: RefundShare | null | undefined): CommissionMoney {
  return map((k) => {
    const leaves = base[k] - (share && !isWholeShare(share) ? shareOfMicros(base[k], share, UNIT[k]) : base[k]);
    return Math.min(live[k], Math.max(0, live[k] - leaves));
  });
}

/** What a refund reversal gives back: the base above what is live (nothing when all of it stands). */
export function toRestore(base: CommissionMoney, live: CommissionMoney): CommissionMoney {
  return map((k) => Math.max(0, base[k] - live[k]));
}

export function isZero(a: CommissionMoney): boolean {
  return FIELDS.every((k) => a[k] === 0);
}

/** What stands of a transaction: the sum of what stands of each of its earns. */
export function standing(earns: { live: CommissionMoney }[]): CommissionMoney {
  return earns.reduce((sum, e) => map((k) => sum[k] + e.live[k]), ZERO);
}

export function minus(a: CommissionMoney, b: CommissionMoney): CommissionMoney {
  return map((k) => a[k] - b[k]);
}

/** One earn's part of a take-back: all that is live of it (`whole`), or a part. */
export interface TakeBackPart<T> {
  earn: T;
  part: CommissionMoney;
  whole: boolean;
}

/**
 * Spreads a take-back over the transaction's live earns, newest first (a restored share before the remainder it
 * stands beside): each gives all it has live until the rest is smaller, which the next gives in part.
 */
export function planTakeBack<T extends { live: CommissionMoney }>(earns: T[], need: CommissionMoney): TakeBackPart<T>[] {
  const parts: TakeBackPart<T>[] = [];
  let rest = need;
  for (const earn of earns) {
    if (isZero(rest)) break;
    if (isZero(earn.live)) continue;
    const part = map((k) => Math.min(rest[k], earn.live[k]));
    if (isZero(part)) continue;
    parts.push({ earn, part, whole: FIELDS.every((k) => part[k] === earn.live[k]) });
    rest = minus(rest, part);
  }
  return parts;
}
