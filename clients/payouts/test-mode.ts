// The embedded test-mode payout provider (`svc dev`'s default without Stripe): no network, no money. A creator's
// account is ready as soon as it is connected, and a transfer is recorded under an id derived from the payout (so a
// retried one is the same transfer). The platform balance it reports is PAYOUT_TEST_AVAILABLE_USD (unset: unlimited)
// and PAYOUT_TEST_PENDING_USD, read from the configuration at each call, so waiting for funds can be seen locally.
// Refused under NODE_ENV=production (runtime/config.ts, clients/payouts/select.ts).
import type { Config } from '../../runtime/config.js';
import type { PayoutProvider } from './provider.js';

const MICROS_PER_USD = 1_000_000;

export function testModePayoutProvider(config: Pick<Config, 'PAYOUT_TEST_AVAILABLE_USD' | 'PAYOUT_TEST_PENDING_USD'>): PayoutProvider {
  return {
    name: 'test',
    label: 'Test mode: no real money moves. Connecting makes a simulated payout account, ready at once.',
    createAccount: async ({ creatorId }) => ({ externalId: `acct_test_${creatorId}` }),
    // No provider page: onboarding completes at once and the creator comes straight back.
    onboardingLink: async ({ returnUrl }) => returnUrl,
    accountState: async () => ({ transfersActive: true, payoutsEnabled: true, requirementsDue: [], disabledReason: null }),
    findTransfer: async () => undefined,
    createTransfer: async ({ payoutId }) => ({ status: 'created', transferId: `tr_test_${payoutId}` }),
    balance: async () => ({
      availableMicros:
        config.PAYOUT_TEST_AVAILABLE_USD === undefined ? Number.MAX_SAFE_INTEGER : config.PAYOUT_TEST_AVAILABLE_USD * MICROS_PER_USD,
      pendingMicros: (config.PAYOUT_TEST_PENDING_USD ?? 0) * MICROS_PER_USD,
    }),
  };
}
