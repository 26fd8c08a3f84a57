// When a creator's payout account can receive a transfer. Returning from onboarding proves nothing: the account is
// ready only when its transfers capability is active, payouts to the bank are enabled, and nothing is currently
// due, past due or disabled (Stripe may ask for more at any time; account.updated tells us).
import type { AccountState } from './payout-account.js';

export function isAccountReady(s: AccountState): boolean {
  return s.transfersActive && s.payoutsEnabled && s.requirementsDue.length === 0 && !s.disabledReason;
}

/** In words, for the creator: what still stands between the account and a payout. */
export function readinessProblems(s: AccountState): string[] {
  const problems: string[] = [];
  if (!s.transfersActive) problems.push('transfers are not active yet');
  if (!s.payoutsEnabled) problems.push('payouts to the bank account are not enabled yet');
  if (s.requirementsDue.length > 0) problems.push(`information is still due (${s.requirementsDue.join(', ')})`);
  if (s.disabledReason) problems.push(`the account is disabled (${s.disabledReason})`);
  return problems;
}

/** A creator's payout account as the developer sees it (the creators page): null fields when there is none. */
export interface StoredAccount {
  provider: string | null;
  transfersActive: boolean | null;
  payoutsEnabled: boolean | null;
  requirementsDue: string[] | null;
  disabledReason: string | null;
}

/** The account's state in words for the developer: none, test mode, ready, or not ready with why. */
export function accountStateForDeveloper(a: StoredAccount): { state: 'none' | 'test_mode' | 'ready' | 'not_ready'; words: string } {
  if (!a.provider) return { state: 'none', words: 'none: no payout account connected, so payouts wait' };
  const s: AccountState = {
    transfersActive: a.transfersActive === true,
    payoutsEnabled: a.payoutsEnabled === true,
    requirementsDue: a.requirementsDue ?? [],
    disabledReason: a.disabledReason,
  };
  if (!isAccountReady(s)) return { state: 'not_ready', words: `not ready: ${readinessProblems(s).join('; ')}` };
  if (a.provider === 'test') return { state: 'test_mode', words: 'test mode: ready, no real money moves' };
  return { state: 'ready', words: 'ready' };
}
