// The embedded test-mode payout provider (`svc dev`'s default without Stripe): no network, no money. A creator's
// account is ready as soon as it is connected, and a transfer is recorded under an id derived from the payout (so a
// retried one is the same transfer). Refused under NODE_ENV=production (lib/config.ts, clients/payouts/select.ts).
import type { PayoutProvider } from './provider.js';

export const testModePayoutProvider: PayoutProvider = {
  name: 'test',
  label: 'Test mode: no real money moves. Connecting makes a simulated payout account, ready at once.',
  createAccount: async ({ creatorId }) => ({ externalId: `acct_test_${creatorId}` }),
  // No provider page: onboarding completes at once and the creator comes straight back.
  onboardingLink: async ({ returnUrl }) => returnUrl,
  accountState: async () => ({ transfersActive: true, payoutsEnabled: true, requirementsDue: [], disabledReason: null }),
  findTransfer: async () => undefined,
  createTransfer: async ({ payoutId }) => ({ status: 'created', transferId: `tr_test_${payoutId}` }),
  balance: async () => ({ availableMicros: Number.MAX_SAFE_INTEGER, pendingMicros: 0 }),
};
