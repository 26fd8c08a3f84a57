// When a creator's payout account can receive a transfer. Returning from onboarding proves nothing: the account is
// ready only when its transfers capability is active, payouts to the bank are enabled, and nothing is currently
// due, past due or disabled (Stripe may ask for more at any time; account.updated tells us).
import type { AccountState } from '../clients/payouts/provider.js';

export function isAccountReady(s: AccountState): boolean {
  return s.transfersActive && s.payoutsEnabled && s.requirementsDue.length === 0 && !s.disabledReason;
}

/** In words, for the creator: what still stands between the account and a payout. */
export function readinessProblems(s: AccountState): string[] {
  const problems: string[] = [];
  if (!s.transfersActive) problems.push('transfers are not active yet');
  if (!s.payoutsEnabled) problems.push('payouts to your bank are not enabled yet');
  if (s.requirementsDue.length > 0) problems.push(`information is still due (${s.requirementsDue.join(', ')})`);
  if (s.disabledReason) problems.push(`the account is disabled (${s.disabledReason})`);
  return problems;
}
