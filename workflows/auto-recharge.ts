// `auto-recharge/{org_id}`: one durable recharge of an organization's wallet. Whoever sees the safe balance below
// the threshold starts it with conflict policy USE_EXISTING, so drops that race while it runs join this run instead
// of charging again. It decides under the wallet lock whether a charge is still due, charges the saved method once
// (the provider's idempotency key names the payment), and the charge is credited through the top-up path. A failed
// charge is recorded on its payment (the wallet and the page show it); the workflow waits, doubling the wait, and
// tries again while the charge is still due, up to `maxAttempts` in a row, then turns auto-recharge off with the
// reason. Provider outages are retried inside the charge activity first (same payment, same idempotency key).
import { ActivityFailure, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { createAutoRechargeActivities } from '../activities/auto-recharge.js';
import type { AutoRechargeInput, AutoRechargeResult, ChargeResult } from './auto-recharge-messages.js';

type Acts = ReturnType<typeof createAutoRechargeActivities>;

const { beginAutoRecharge, recordRechargeFailure, turnOffAutoRecharge } = proxyActivities<Acts>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// Outages of the provider: about 20 minutes of attempts on the same payment before the attempt counts as failed.
const { chargeAutoRecharge } = proxyActivities<Acts>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    maximumAttempts: 8,
    nonRetryableErrorTypes: ['AutoRechargeUnusable'],
  },
});

export async function autoRechargeWorkflow(input: AutoRechargeInput): Promise<AutoRechargeResult> {
  const { workflowId, runId } = workflowInfo();
  let reason = '';
  for (let attempt = 1; ; attempt++) {
    const begun = await beginAutoRecharge({ orgId: input.orgId, requestKey: `${workflowId}/${runId}/${attempt}` });
    if (!begun.paymentId) return { outcome: 'not_needed', reason: begun.reason, attempts: attempt - 1 };
    const charged = await charge(begun.paymentId);
    if (charged.status !== 'failed') return { outcome: charged.status, paymentId: charged.paymentId, attempts: attempt };
    reason = charged.reason;
    if (attempt >= input.maxAttempts) break;
    await sleep(input.retrySeconds * 1000 * 2 ** (attempt - 1));
  }
  const off = `turned off after ${input.maxAttempts} failed charge(s) in a row; last: ${reason}`;
  await turnOffAutoRecharge({ orgId: input.orgId, reason: off });
  return { outcome: 'disabled', reason: off, attempts: input.maxAttempts };
}

/** One charge; an activity that gave up (provider unreachable all along) is recorded as a failed charge too. */
async function charge(paymentId: string): Promise<ChargeResult> {
  try {
    return await chargeAutoRecharge(paymentId);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const reason = `the payment provider could not be reached (${err.cause?.message ?? err.message})`;
    await recordRechargeFailure({ paymentId, reason });
    return { status: 'failed', paymentId, reason };
  }
}
