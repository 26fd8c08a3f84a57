// What callers share with the payout-run workflow: its id (one per payout run), input and results.
import type { BalanceFigures } from '../lib/balance-check.js';

export const PAYOUT_RUN_WORKFLOW = 'payoutRunWorkflow';
const PREFIX = 'payout-run/';

/** On demand: `payout-run/{run_id}`. A schedule's runs get Temporal's suffix `-{scheduled time}` on its action's id. */
export function payoutRunWorkflowId(runId: string): string {
  return `${PREFIX}${runId}`;
}

/** The run id a workflow id names, so a schedule's re-fire of the same scheduled time is the same run. */
export function runIdOfWorkflowId(workflowId: string): string {
  return workflowId.startsWith(PREFIX) ? workflowId.slice(PREFIX.length) : workflowId;
}

/** The schedule action's workflow id; Temporal appends the scheduled time. */
export function scheduledRunWorkflowId(orgId: string): string {
  return `${PREFIX}sched-${orgId}`;
}

export function payoutScheduleId(orgId: string): string {
  return `payout-schedule/${orgId}`;
}

export interface PayoutRunInput {
  orgId: string;
  createdBy: string;
}

export type TransferStep =
  | { status: 'transferred'; transferId: string }
  | { status: 'settled' | 'returned'; reason?: string }
  /** The platform's funds are still pending at the provider: look again after `waitMs`. */
  | { status: 'waiting'; waitMs: number; reason: string };

export interface PayoutRunOutcome {
  runId: string;
  payouts: { payoutId: string; step: TransferStep }[];
}

export const BALANCE_CHECK_WORKFLOW = 'platformBalanceCheckWorkflow';
export const BALANCE_CHECK_SCHEDULE_ID = 'platform-balance-check';

/**
 * The daily check's report (lib/balance-check.ts): gap = platform (available + pending at the provider) - sum of the
 * wallets, its expected part, the unexplained rest and the payouts whose transferred cents differ from their net.
 */
export type BalanceCheck = { checked: false } | ({ checked: true } & BalanceFigures);
