// Starting payout runs and keeping the per-organization payout schedules (docs/wallet-and-payouts.md "Schedules").
// * startPayoutRun: `payout-run/{run_id}` (conflict policy USE_EXISTING: a double click or a resumed start joins
//   the run under way; a run id already done is recorded once and only its pending payouts are sent).
// * resumePayoutRuns: every run with a payout still `transfer_pending` (the worker died between the phases, or the
//   CLI recorded a run without Temporal) is started again: by the worker's pass, at start and every
//   PAYOUT_RESUME_EVERY_MS (jobs/payout-resume.ts); a run under way is joined (USE_EXISTING), never started twice.
// * reconcilePayoutSchedules: create-or-update `payout-schedule/{org_id}` for every organization with a period in
//   PostgreSQL (overlap skip, catch-up window), and delete it for one whose period was cleared.
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptions,
} from '@temporalio/client';
import type { Knex } from 'knex';
import { getPayoutSettings, scheduledPayoutOrgs } from '../db/payout-settings.js';
import { payoutScheduleInterval } from '../lib/payout-schedule.js';
import { runsWithPendingTransfers } from '../db/payout-transfers.js';
import {
  BALANCE_CHECK_SCHEDULE_ID,
  BALANCE_CHECK_WORKFLOW,
  PAYOUT_RUN_WORKFLOW,
  payoutRunWorkflowId,
  payoutScheduleId,
  scheduledRunWorkflowId,
  type PayoutRunInput,
} from '../workflows/payout-run-messages.js';

const HOUR_MS = 3_600_000;

export interface PayoutClientDeps {
  client: Pick<Client, 'workflow' | 'schedule'>;
  taskQueue: string;
}

export async function startPayoutRun(deps: PayoutClientDeps, runId: string, input: PayoutRunInput): Promise<void> {
  // Started by name: the workflow's module imports the activities' types.
  await deps.client.workflow.start(PAYOUT_RUN_WORKFLOW, {
    workflowId: payoutRunWorkflowId(runId),
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
}

export async function resumePayoutRuns(deps: PayoutClientDeps & { db: Knex }): Promise<number> {
  const runs = await runsWithPendingTransfers(deps.db);
  for (const r of runs) await startPayoutRun(deps, r.runId, { orgId: r.orgId, createdBy: 'resumed by the worker' });
  return runs.length;
}

function scheduleOptions(deps: PayoutClientDeps, orgId: string, periodHours: number, catchupHours: number): ScheduleOptions {
  const input: PayoutRunInput = { orgId, createdBy: 'payout schedule' };
  return {
    scheduleId: payoutScheduleId(orgId),
    spec: { intervals: [payoutScheduleInterval(periodHours)] },
    action: {
      type: 'startWorkflow',
      workflowType: PAYOUT_RUN_WORKFLOW,
      workflowId: scheduledRunWorkflowId(orgId),
      taskQueue: deps.taskQueue,
      args: [input],
    },
    // Temporal's smallest catch-up window is one minute.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: Math.max(catchupHours * HOUR_MS, 60_000) },
  };
}

/** One organization's schedule made to match its stored period (created, updated or deleted). */
export async function reconcilePayoutSchedule(
  deps: PayoutClientDeps & { db: Knex; catchupHours: number },
  orgId: string,
): Promise<'created' | 'updated' | 'deleted' | 'none'> {
  const { periodHours } = await getPayoutSettings(deps.db, orgId);
  const handle = deps.client.schedule.getHandle(payoutScheduleId(orgId));
  if (periodHours === null) {
    try {
      await handle.delete();
      return 'deleted';
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return 'none';
      throw err;
    }
  }
  const options = scheduleOptions(deps, orgId, periodHours, deps.catchupHours);
  try {
    await deps.client.schedule.create(options);
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await handle.update((prev) => ({
    ...prev,
    spec: options.spec,
    action: options.action,
    policies: { ...prev.policies, ...options.policies },
  }));
  return 'updated';
}

/** The daily platform balance check's schedule, created once (worker start). */
export async function ensureBalanceCheckSchedule(deps: PayoutClientDeps): Promise<void> {
  try {
    await deps.client.schedule.create({
      scheduleId: BALANCE_CHECK_SCHEDULE_ID,
      spec: { intervals: [{ every: 24 * HOUR_MS }] },
      action: {
        type: 'startWorkflow',
        workflowType: BALANCE_CHECK_WORKFLOW,
        workflowId: BALANCE_CHECK_SCHEDULE_ID,
        taskQueue: deps.taskQueue,
        args: [],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: HOUR_MS },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}

/** At worker start: every organization with a period gets its schedule created or brought up to date. */
export async function reconcilePayoutSchedules(deps: PayoutClientDeps & { db: Knex; catchupHours: number }): Promise<number> {
  const orgs = await scheduledPayoutOrgs(deps.db);
  for (const o of orgs) await reconcilePayoutSchedule(deps, o.orgId);
  return orgs.length;
}
