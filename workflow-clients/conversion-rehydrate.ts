// `svc workflows rehydrate`: moves a database to the current generation of the conversion workflow. Open runs
// recorded by an older generation cannot replay on today's code, so each is terminated and started again from
// what PostgreSQL records (status, one-time, and the release time of the earliest held commission). What the old
// run remembered (recent answers) is not needed: a redelivered event meets its unique keys in PostgreSQL and is
// answered as a duplicate, never applied twice.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { Knex } from 'knex';
import { nextReleaseAt } from '../db/commission-holding.js';
import { findConversionByKey } from '../db/conversions.js';
import { recordWorkflowGeneration } from '../db/workflow-generations.js';
import { AppIdKey, AppUserIdKey, ConversionStatusKey, EnvironmentKey, ReferralCodeKey } from '../schema/search-attributes.js';
import type { ConversionRow } from '../schema/types.js';
import { conversionWorkflow } from '../workflows/conversion.js';
import {
  CONVERSION_WORKFLOW_GENERATION,
  parseConversionWorkflowId,
  type ConversionWorkflowInput,
} from '../workflows/conversion-messages.js';

export interface RehydrateSummary {
  terminated: number;
  restarted: number;
  generation: number;
}

/** The open conversion runs of the worker's task queue (those its workers would replay). */
export async function rehydrateConversions(
  db: Knex,
  client: Client,
  opts: { taskQueue: string; holdingDayMs: number },
): Promise<RehydrateSummary> {
  const open: WorkflowExecutionInfo[] = [];
  const query =
    `WorkflowType = 'conversionWorkflow' AND ExecutionStatus = ` + `'Running' AND TaskQueue = '${opts.taskQueue.replaceAll("'", "\\'")}'`;
  for await (const run of client.workflow.list({ query })) open.push(run);
  const summary: RehydrateSummary = { terminated: 0, restarted: 0, generation: CONVERSION_WORKFLOW_GENERATION };
  for (const run of open) {
    const target = parseConversionWorkflowId(run.workflowId);
    if (!target) continue;
    await client.workflow
      .getHandle(run.workflowId, run.runId)
      .terminate(`rehydrated to conversion workflow generation ${CONVERSION_WORKFLOW_GENERATION}`);
    summary.terminated += 1;
    const conversion = await findConversionByKey(db, target.appId, target.conversionKey);
    // A run whose first event was never recorded left nothing to carry: its next event starts a new run.
    if (!conversion) continue;
    const input: ConversionWorkflowInput = {
      appId: target.appId,
      conversionKey: target.conversionKey,
      status: conversion.status,
      oneTime: conversion.kind === 'one_time',
      releaseAt: await nextReleaseAt(db, conversion.id, opts.holdingDayMs),
    };
    // An event arriving meanwhile may have started a run already (update-with-start): that run is kept.
    await client.workflow.start(conversionWorkflow, {
      workflowId: run.workflowId,
      taskQueue: run.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: searchAttributesOf(conversion),
    });
    summary.restarted += 1;
  }
  await recordWorkflowGeneration(db, 'conversion', CONVERSION_WORKFLOW_GENERATION);
  return summary;
}

function searchAttributesOf(c: ConversionRow) {
  return [
    { key: AppIdKey, value: c.app_id },
    { key: EnvironmentKey, value: c.environment },
    { key: ConversionStatusKey, value: c.status },
    ...(c.app_user_id ? [{ key: AppUserIdKey, value: c.app_user_id }] : []),
    ...(c.referral_code ? [{ key: ReferralCodeKey, value: c.referral_code }] : []),
  ];
}
