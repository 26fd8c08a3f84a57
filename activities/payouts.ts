// Activities of the payout-run workflow (workflows/payout-run.ts). Phase 1 is actions/payout-run.ts (one short
// transaction, idempotent per run id; the same rule of who is paid as every other run). Phase 2 sends one payout: a payout already settled
// answers its state; a resumed one first looks for its transfer at the provider (Stripe keeps idempotency keys only about a day) and
// records it; otherwise, with a ready account and enough available funds, one transfer under the payout's idempotency key. A refusal
// returns the payout's lines to payable (db/payout-transfers.ts); funds still pending at the provider make the payout
// wait. A provider that cannot be reached throws PayoutProviderError: Temporal retries the activity.
import { log } from '@temporalio/activity';
import type { Knex } from 'knex';
import { runPayoutRun } from '../actions/payout-run.js';
import { payoutProviderNamed, payoutProviderOf } from '../clients/payouts/select.js';
import { findOrganization } from '../db/organizations.js';
import { findPayoutAccount, stateOfRow } from '../db/payout-accounts.js';
import { recordPayoutTransfer, returnPayout, settleEmptyPayout } from '../actions/payout-transfers.js';
import { findPayout, pendingPayoutsOfRun } from '../db/payout-transfers.js';
import { nextFundsAvailableAt } from '../db/payments.js';
import { totalWalletBalancesMicros } from '../db/wallet-ledger.js';
import { payoutsNotReturned } from '../db/platform-balance.js';
import { balanceFigures } from '../lib/balance-check.js';
import type { Config } from '../runtime/config.js';
import { isWholeCents } from '../lib/money.js';
import { isAccountReady, readinessProblems } from '../lib/payout-readiness.js';
import type { BalanceCheck, TransferStep } from '../workflows/payout-run-messages.js';

export function createPayoutActivities({ db, config }: { db: Knex; config: Config }) {
  const refuse = async (payoutId: string, reason: string): Promise<TransferStep> => {
    await returnPayout({ db }, { payoutId, reason });
    return { status: 'returned', reason };
  };
  return {
    /**
     * Phase 1: the run recorded (or found: a run the wallet page or the CLI recorded keeps what it planned); answers
     * the payouts still waiting for their transfer. Who is held over is the action's rule, as for every run.
     */
    async planPayoutRun({ orgId, runId, createdBy }: { orgId: string; runId: string; createdBy: string }): Promise<string[]> {
      // A run started against another installation's database (a stray Temporal target) has nothing to pay here.
      if (!(await findOrganization(db, orgId))) return [];
      await runPayoutRun({ db }, { orgId, runId, createdBy });
      return pendingPayoutsOfRun(db, runId);
    },

    /**
     * The daily balance check: the platform's balance at the provider (available + pending) against the sum of the
     * wallets, with the part of the gap that is expected (lib/balance-check.ts) and the unexplained rest; any payout
     * whose transferred cents differ from its net is named. Anything unexplained or named is logged as an error.
     */
    async checkPlatformBalance(): Promise<BalanceCheck> {
      const provider = payoutProviderOf(config);
      if (!provider || provider.name === 'test') return { checked: false };
      const [walletsMicros, balance, payouts, sent, processingFeesMicros] = await Promise.all([
        totalWalletBalancesMicros(db),
        provider.balance(),
        payoutsNotReturned(db),
        provider.sentTransfers?.() ?? [],
        provider.processingFeesMicros?.() ?? 0,
      ]);
      const platformMicros = balance.availableMicros + balance.pendingMicros;
      const report = { checked: true as const, ...balanceFigures({ walletsMicros, platformMicros, payouts, sent, processingFeesMicros }) };
      if (report.unexplainedMicros !== 0 || report.mismatchedPayouts.length > 0) log.error('the platform balance is not explained', report);
      else log.info('platform balance checked', report);
      return report;
    },

    /** Phase 2, one payout. */
    async transferPayout(payoutId: string): Promise<TransferStep> {
      const payout = await findPayout(db, payoutId);
      if (!payout) throw new Error(`payout ${payoutId} not found`);
      if (payout.transfer_status === 'transferred') return { status: 'transferred', transferId: payout.transfer_id! };
      if (payout.transfer_status !== 'transfer_pending') return { status: payout.transfer_status, reason: payout.failure ?? undefined };
      const net = Number(payout.net_micros);
      // Money leaves in cents: a net with a fraction of a cent (impossible since migration 0049) is never rounded.
      if (!isWholeCents(net)) {
        log.error('a payout net is not whole cents: refused', { payoutId, net });
        return refuse(payoutId, `the net of ${net} micro-USD is not a whole number of cents`);
      }
      if (net === 0) {
        await settleEmptyPayout({ db }, { payoutId });
        return { status: 'settled' };
      }
      const account = await findPayoutAccount(db, payout.creator_id);
      if (!account) return refuse(payoutId, 'the creator has no payout account');
      const provider = payoutProviderNamed(config, account.provider);
      if (!provider) return refuse(payoutId, `the ${account.provider} payout provider is not configured on this server`);
      const existing = await provider.findTransfer({ group: payout.run_id, payoutId });
      if (existing) {
        await recordPayoutTransfer({ db }, { payoutId, provider: provider.name, transferId: existing });
        return { status: 'transferred', transferId: existing };
      }
      const state = stateOfRow(account);
      if (!isAccountReady(state))
        return refuse(payoutId, `the creator's payout account is not ready: ${readinessProblems(state).join('; ')}`);
      const balance = await provider.balance();
      if (balance.availableMicros < net) {
        if (balance.availableMicros + balance.pendingMicros < net)
          return refuse(payoutId, 'insufficient available funds in the platform balance');
        const now = new Date();
        const next = await nextFundsAvailableAt(db, payout.org_id, now);
        const waitMs = next ? Math.max(1000, next.getTime() - now.getTime()) : config.PAYOUT_FUNDS_RETRY_SECONDS * 1000;
        return { status: 'waiting', waitMs, reason: "the platform's funds are not available yet" };
      }
      const outcome = await provider.createTransfer({
        payoutId,
        group: payout.run_id,
        destination: account.external_id,
        amountMicros: net,
        idempotencyKey: `payout:${payoutId}`,
        orgId: payout.org_id,
      });
      if (outcome.status === 'refused') return refuse(payoutId, outcome.reason);
      await recordPayoutTransfer({ db }, { payoutId, provider: provider.name, transferId: outcome.transferId });
      return { status: 'transferred', transferId: outcome.transferId };
    },
  };
}
