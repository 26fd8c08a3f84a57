// A payout run of one organization, phase 1 (docs/wallet-and-payouts.md "Who is paid" and "Two phases"): the one
// function every run goes through (the wallet page, `svc payouts run`, the payout-run workflow's first activity, the
// demo history); callers only translate their input and its answer. One short transaction under the organization
// lock plans the run (lib/payouts.ts), decides who is paid now and who is held over (lib/payout-holdover.ts), records
// each payout (db/payouts.ts) and the holdovers with their reasons (db/payout-holdovers.ts). A refund racing the run
// sees each commission either before it (still payable: its clawback is netted now) or after it (paid: the clawback
// waits for the next run). Idempotent per run id: a used run id answers that run's current state and pays nothing.
// A run a person started on the dashboard is audited after the commit. After the commit, phase 2 (the payout-run workflow: one transfer per
// payout) is started when the caller can start it; otherwise the worker's resume pass takes the run up (jobs/payout-resume.ts). Never
// reachable by an agent.
import type { Knex } from 'knex';
import { approvedAwardsToPay } from '../db/bonus-awards.js';
import { accountStatesOf } from '../db/payout-accounts.js';
import { holdoversOfRuns, recordHoldovers, type HeldOver } from '../db/payout-holdovers.js';
import { minimumPayoutMicros } from '../db/payout-settings.js';
import {
  awardLine,
  outstandingClawbacks,
  payableCommissions,
  payCreator,
  plannedPayout,
  recordedPayouts,
  recordPayoutRun,
  type CreatorPayout,
} from '../db/payouts.js';
import { lockOrganization } from '../db/wallet-ledger-writes.js';
import { auditDashboardAction, type DashboardActor } from './dashboard-actor.js';
import { holdOverReason } from '../lib/payout-holdover.js';
import { planPayouts, type CreatorPayoutPlan } from '../lib/payouts.js';

export type { CreatorPayout } from '../db/payouts.js';
export type { HeldOver } from '../db/payout-holdovers.js';

export interface PayoutRunRequest {
  orgId: string;
  runId: string;
  /** Read and decide without writing (the wallet page's preview, `--dry-run`). */
  dryRun?: boolean;
  createdBy?: string;
  /** A person ran it on the dashboard: a run that paid now is audited (`dashboard.run_payouts`). */
  auditedAs?: DashboardActor;
}

export interface PayoutRunDeps {
  db: Knex;
  /** Starts phase 2 for the recorded run (workflow-clients/payout-runs.ts startPayoutRun); absent inside the workflow. */
  startTransfers?: (run: { orgId: string; runId: string; createdBy: string }) => Promise<void>;
}

export interface PayoutRunResult {
  run_id: string;
  org_id: string;
  dry_run: boolean;
  /** The run id was used before: its payouts as they stand now; nothing was paid now. */
  already_run: boolean;
  payouts: CreatorPayout[];
  held_over: HeldOver[];
  totals: { gross_micros: number; fees_micros: number; clawbacks_netted_micros: number; net_micros: number };
  /** Phase 2: `none` (nothing to send), `started`, or `left_to_worker` (the worker's resume pass sends it). */
  transfers: 'none' | 'started' | 'left_to_worker';
}

export async function runPayoutRun(deps: PayoutRunDeps, input: PayoutRunRequest): Promise<PayoutRunResult> {
  const { alreadyRun, payouts, heldOver } = await deps.db.transaction((trx) => planAndRecord(trx, input));
  const pending = !input.dryRun && payouts.some((p) => p.transfer_status === 'transfer_pending');
  const transfers = pending ? await startTransfers(deps, input) : 'none';
  const sum = (k: keyof PayoutRunResult['totals']) => payouts.reduce((s, p) => s + p[k], 0);
  if (input.auditedAs && !alreadyRun && !input.dryRun)
    await auditDashboardAction(deps.db, input.auditedAs, {
      orgId: input.orgId,
      action: 'dashboard.run_payouts',
      targetType: 'payout_run',
      targetId: input.runId,
      details: { creators: payouts.length, held_over: heldOver.length, net_micros: sum('net_micros') },
    });
  return {
    run_id: input.runId,
    org_id: input.orgId,
    dry_run: input.dryRun ?? false,
    already_run: alreadyRun,
    payouts,
    held_over: heldOver,
    totals: {
      gross_micros: sum('gross_micros'),
      fees_micros: sum('fees_micros'),
      clawbacks_netted_micros: sum('clawbacks_netted_micros'),
      net_micros: sum('net_micros'),
    },
    transfers,
  };
}

async function planAndRecord(
  trx: Knex.Transaction,
  input: PayoutRunRequest,
): Promise<{ alreadyRun: boolean; payouts: CreatorPayout[]; heldOver: HeldOver[] }> {
  // A dry run reads without the lock: it writes nothing and may be a moment stale.
  const lock = !input.dryRun;
  if (lock) await lockOrganization(trx, input.orgId);
  const previous = await recordedPayouts(trx, input.orgId, input.runId);
  if (previous)
    return { alreadyRun: true, payouts: previous, heldOver: (await holdoversOfRuns(trx, [input.runId])).get(input.runId) ?? [] };
  const awards = await approvedAwardsToPay(trx, input.orgId, lock);
  const plans = planPayouts(
    await payableCommissions(trx, input.orgId, lock),
    await outstandingClawbacks(trx, input.orgId, lock),
    awards.map((a) => ({ id: a.id, creatorId: a.creator_id, amountMicros: a.amount_micros })),
  );
  const accounts = await accountStatesOf(
    trx,
    plans.map((p) => p.creatorId),
  );
  const minimum = await minimumPayoutMicros(trx, input.orgId);
  const paid: CreatorPayoutPlan[] = [];
  const heldOver: HeldOver[] = [];
  for (const plan of plans) {
    const reason = holdOverReason(plan.netMicros, accounts.get(plan.creatorId), minimum);
    if (reason === null) paid.push(plan);
    else heldOver.push({ creator_id: plan.creatorId, payable_micros: plan.netMicros, reason });
  }
  const linesOf = (p: CreatorPayoutPlan) => awards.filter((a) => p.awardIds.includes(a.id)).map(awardLine);
  if (input.dryRun) return { alreadyRun: false, payouts: paid.map((p) => plannedPayout(p, linesOf(p))), heldOver };
  await recordPayoutRun(trx, input);
  const payouts: CreatorPayout[] = [];
  for (const plan of paid) payouts.push(await payCreator(trx, input, plan, linesOf(plan)));
  await recordHoldovers(trx, input.runId, heldOver);
  return { alreadyRun: false, payouts, heldOver };
}

async function startTransfers(deps: PayoutRunDeps, input: PayoutRunRequest): Promise<'started' | 'left_to_worker'> {
  if (!deps.startTransfers) return 'left_to_worker';
  try {
    await deps.startTransfers({ orgId: input.orgId, runId: input.runId, createdBy: input.createdBy ?? 'payout run' });
    return 'started';
  } catch {
    // Temporal away: the payouts stay `transfer_pending` and the worker's resume pass sends them.
    return 'left_to_worker';
  }
}
