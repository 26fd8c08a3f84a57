// What callers share with the auto-recharge workflow: its id (one per organization), input and result.

export interface AutoRechargeInput {
  orgId: string;
  /** Failed charges in a row after which auto-recharge turns itself off (AUTO_RECHARGE_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Wait after the first failed charge, doubling after each (AUTO_RECHARGE_RETRY_SECONDS). */
  retrySeconds: number;
}

export type AutoRechargeResult =
  | { outcome: 'not_needed'; reason: string; attempts: number }
  | { outcome: 'succeeded' | 'processing'; paymentId: string; attempts: number }
  | { outcome: 'disabled'; reason: string; attempts: number };

export interface BeginRechargeResult {
  paymentId: string | null;
  reason: string;
}
export type ChargeResult =
  { status: 'succeeded' | 'processing'; paymentId: string } | { status: 'failed'; paymentId: string; reason: string };

export const AUTO_RECHARGE_WORKFLOW = 'autoRechargeWorkflow';

export function autoRechargeWorkflowId(orgId: string): string {
  return `auto-recharge/${orgId}`;
}
