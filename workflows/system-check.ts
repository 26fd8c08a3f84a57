// A smoke test of the whole chain an operator cares about: API/CLI -> Temporal -> worker -> PostgreSQL.
// `svc dev` runs it after start-up and reports the result; the test harness uses it to prove a worker polls.
import { proxyActivities } from '@temporalio/workflow';
import type { createSystemActivities } from '../activities/system.js';

const { checkDatabase } = proxyActivities<ReturnType<typeof createSystemActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

export interface SystemCheckResult {
  database: boolean;
  latestMigration: string | null;
  checkedBy: string;
}

export async function systemCheckWorkflow(): Promise<SystemCheckResult> {
  const database = await checkDatabase();
  return { database: true, latestMigration: database.latestMigration, checkedBy: database.workerIdentity };
}

export function systemCheckWorkflowId(runId: string): string {
  return `system-check/${runId}`;
}
