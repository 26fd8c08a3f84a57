// Who a payout run pays now and who it holds over (docs/wallet-and-payouts.md "Who is paid"): one rule for every run
// (the wallet page, `svc payouts run`, the schedule, the demo history; actions/payout-run.ts applies it). A creator
// is held over, their lines staying payable and accruing, when money would have to move and they have no ready
// payout account, or when their net as it will be sent (whole cents) is below the organization's minimum payout.
// A net of zero (clawbacks netted the whole gross) moves no money, so it needs no account.
import type { AccountState } from './payout-account.js';
import { formatUsd, toCentsMicros } from './money.js';
import { isAccountReady, readinessProblems } from './payout-readiness.js';

/** Null: pay now. Otherwise the reason the creator is held over, in the words a person uses. */
export function holdOverReason(netMicros: number, account: AccountState | undefined, minimumMicros: number): string | null {
  const sent = toCentsMicros(netMicros);
  if (sent > 0 && !account) return 'no payout account connected';
  if (sent > 0 && !isAccountReady(account!)) return `payout account not ready: ${readinessProblems(account!).join('; ')}`;
  if (sent < minimumMicros) return `below the organization's minimum payout of ${formatUsd(minimumMicros)}`;
  return null;
}
