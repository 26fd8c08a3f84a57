// Whether a production commission is funded (docs/wallet-and-payouts.md): its reservation (commission + fee) is taken
// from the wallet's safe balance (balance less what is reserved) read under the organization lock, or it waits
// `unfunded` for a top-up. One rule for the earn (db/commissions.ts earnCommission, which decides inside the statement
// that takes the lock: its FUNDED_SQL is held to this function by test/integration/funding-sql.test.ts), the top-up
// catch-up (fundUnfundedCommissions), which funds the oldest first while each fits, and a bonus approval.

export type Funding = 'reserved' | 'unfunded';

/** The status of an earn reserving `reserveMicros` from a wallet whose safe balance is `safeMicros`. */
export const fundingOf = (safeMicros: number, reserveMicros: number): Funding => (safeMicros >= reserveMicros ? 'reserved' : 'unfunded');

/**
 * After the earn: the safe balance is below the auto-recharge threshold (`rechargeBelowMicros`, null when
 * auto-recharge is off), so the wallet dropped low and a recharge may be due.
 */
export function walletLowAfter(
  safeBeforeMicros: number,
  funding: Funding,
  reserveMicros: number,
  rechargeBelowMicros: number | null,
): boolean {
  const safeAfter = safeBeforeMicros - (funding === 'reserved' ? reserveMicros : 0);
  return rechargeBelowMicros !== null && safeAfter < rechargeBelowMicros;
}
