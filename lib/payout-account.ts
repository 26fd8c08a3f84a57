// What a payout provider says about a creator's account and the transfers it made, as plain data: the pure rules
// (lib/payout-readiness.ts, lib/payout-holdover.ts, lib/balance-check.ts) read it, clients/payouts/provider.ts
// implements the calls that return it.
/** What the provider says about a payout account; readiness is decided by lib/payout-readiness.ts. */
export interface AccountState {
  transfersActive: boolean;
  payoutsEnabled: boolean;
  /** Requirements currently due or past due (Stripe's names): the account is not ready while any exist. */
  requirementsDue: string[];
  disabledReason: string | null;
}

/** A transfer the provider made for one of our payouts (metadata `payout_id`), in micro-USD. */
export interface SentTransfer {
  payoutId: string;
  transferId: string;
  amountMicros: number;
  reversedMicros: number;
}
