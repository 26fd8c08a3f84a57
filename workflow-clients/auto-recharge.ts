// The signal that starts a recharge: every code path that lowers the safe balance (a commission reserved by the
// purchase activity, a bonus approved, the catch-up after a top-up) calls rechargeIfLow after its transaction
// committed. One indexed read decides; when the wallet is below the threshold it starts `auto-recharge/{org_id}`,
// or joins the run already under way (conflict policy USE_EXISTING), so racing drops charge once. The workflow
// re-checks under the wallet lock before charging.
import type { WorkflowClient } from '@temporalio/client';
import type { Knex } from 'knex';
import { lowWalletOrg } from '../db/auto-recharge.js';
import type { Config } from '../runtime/config.js';
import { AUTO_RECHARGE_WORKFLOW, autoRechargeWorkflowId, type AutoRechargeInput } from '../workflows/auto-recharge-messages.js';

export interface RechargeDeps {
  client: { workflow: WorkflowClient };
  db: Knex;
  config: Pick<Config, 'AUTO_RECHARGE_MAX_ATTEMPTS' | 'AUTO_RECHARGE_RETRY_SECONDS'>;
  taskQueue: string;
}

export async function startAutoRecharge(deps: Omit<RechargeDeps, 'db'>, orgId: string): Promise<string> {
  const input: AutoRechargeInput = {
    orgId,
    maxAttempts: deps.config.AUTO_RECHARGE_MAX_ATTEMPTS,
    retrySeconds: deps.config.AUTO_RECHARGE_RETRY_SECONDS,
  };
  // Started by name: the workflow's module imports the activities' types, which import this module.
  const handle = await deps.client.workflow.start(AUTO_RECHARGE_WORKFLOW, {
    workflowId: autoRechargeWorkflowId(orgId),
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
  return handle.firstExecutionRunId;
}

/** Starts (or joins) the organization's recharge when its wallet is below its threshold; answers the org id if so. */
export async function rechargeIfLow(deps: RechargeDeps, by: { orgId: string } | { conversionId: string }): Promise<string | undefined> {
  const orgId = await lowWalletOrg(deps.db, by);
  if (orgId) await startAutoRecharge(deps, orgId);
  return orgId;
}
