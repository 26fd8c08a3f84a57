// `payout-run/{run_id}`: one payout run of an organization, in two phases (docs/wallet-and-payouts.md "Two phases").
// (1) One activity records the run in a short transaction (idempotent per run id: a repeat answers the payouts it
// left pending). (2) One activity per payout sends its transfer; a payout waiting for the platform's funds sleeps
// durably and looks again. The run id is the workflow id without its prefix, so a schedule's re-fire of the same
// scheduled time, a retry or a resumed run is the same run and pays nobody twice.
import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { createPayoutActivities } from '../activities/payouts.js';
import {
  runIdOfWorkflowId,
  type BalanceCheck,
  type PayoutRunInput,
  type PayoutRunOutcome,
  type TransferStep,
} from './payout-run-messages.js';

type Acts = ReturnType<typeof createPayoutActivities>;

// Stripe's client gives up after two 10 s attempts (clients/payments/stripe.ts), well inside the timeout; a worker
// killed mid-transfer has its attempt retried after 30 s, and the retry looks for the transfer first.
const { planPayoutRun, transferPayout, checkPlatformBalance } = proxyActivities<Acts>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export async function payoutRunWorkflow(input: PayoutRunInput): Promise<PayoutRunOutcome> {
  const runId = runIdOfWorkflowId(workflowInfo().workflowId);
  const pending = await planPayoutRun({ orgId: input.orgId, runId, createdBy: input.createdBy });
  const payouts = await Promise.all(pending.map(async (payoutId) => ({ payoutId, step: await transferUntilDone(payoutId) })));
  return { runId, payouts };
}

async function transferUntilDone(payoutId: string): Promise<TransferStep> {
  for (;;) {
    const step = await transferPayout(payoutId);
    if (step.status !== 'waiting') return step;
    await sleep(step.waitMs);
  }
}

/** The daily check that the platform's balance covers the sum of the wallets (its own schedule). */
export async function platformBalanceCheckWorkflow(): Promise<BalanceCheck> {
  return checkPlatformBalance();
}
