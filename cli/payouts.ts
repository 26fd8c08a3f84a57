// `svc payouts run --org ORG_ID [--run-id ID] [--dry-run] [--json]`: the operator's payout run (humans only: no agent
// route or tool reaches it). Phase 1 is db/payouts.ts, run here; phase 2 (the transfers) is the payout-run workflow,
// started here when Temporal answers, else by the next worker start (workflow-clients/payout-runs.ts). A run id
// already used pays nothing again and prints what that run paid; without --run-id a fresh one is generated and
// printed, so the run can be repeated safely.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { findOrganization } from '../db/organizations.js';
import { pendingPayoutsOfRun } from '../db/payout-transfers.js';
import { runPayouts, type PayoutRunResult } from '../db/payouts.js';
import type { Config } from '../lib/config.js';
import { formatUsd } from '../lib/money.js';
import { newRunId, RUN_ID_PATTERN } from '../lib/payouts.js';
import { createTemporalClient, isTemporalReachable } from '../runtime/temporal-client.js';
import { withTemporalTarget } from '../runtime/temporal-target.js';
import { startPayoutRun } from '../workflow-clients/payout-runs.js';
import { DEFAULT_TEMPORAL_ADDRESS } from './processes.js';

const USAGE = 'usage: svc payouts run --org ORG_ID [--run-id ID] [--dry-run] [--json]';

export interface PayoutsCliDeps {
  operatorConfig: () => Config;
  withDb: <T>(config: Config, fn: (db: Knex) => Promise<T>) => Promise<T>;
  usage: (message: string) => Error;
}

interface Flags {
  org?: string;
  'run-id'?: string;
  'dry-run'?: boolean;
  json?: boolean;
}

export async function runPayoutsCommand(positionals: string[], flags: Flags, deps: PayoutsCliDeps): Promise<void> {
  if (positionals[0] !== 'run' || !flags.org) throw deps.usage(USAGE);
  const runId = flags['run-id'] ?? newRunId(new Date(), randomBytes(6).toString('hex'));
  if (!RUN_ID_PATTERN.test(runId)) throw deps.usage(`--run-id must be 1 to 100 of A-Z a-z 0-9 _ . : - (${USAGE})`);
  const orgId = flags.org;
  const { config, temporal: target } = withTemporalTarget(deps.operatorConfig());
  const result = await deps.withDb(config, async (db) => {
    if (!(await findOrganization(db, orgId))) throw deps.usage(`no organization ${orgId}`);
    const run = await runPayouts(db, { orgId, runId, dryRun: flags['dry-run'] ?? false, createdBy: 'svc payouts run' });
    const pending = run.dry_run ? [] : await pendingPayoutsOfRun(db, runId);
    return { ...run, transfers: pending.length === 0 ? ('none' as const) : await startTransfers(config, target.extras, orgId, runId) };
  });
  process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : `${describe(result)}\n`);
}

/** Phase 2 through Temporal when it answers; otherwise the next worker start takes the run up. */
async function startTransfers(
  config: Config,
  extras: Parameters<typeof createTemporalClient>[2],
  orgId: string,
  runId: string,
): Promise<'started' | 'left_to_worker'> {
  const client = createTemporalClient(config.TEMPORAL_ADDRESS ?? DEFAULT_TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, extras);
  try {
    if (!(await isTemporalReachable(client))) return 'left_to_worker';
    await startPayoutRun({ client, taskQueue: config.TEMPORAL_TASK_QUEUE }, runId, { orgId, createdBy: 'svc payouts run' });
    return 'started';
  } catch {
    return 'left_to_worker';
  } finally {
    await client.connection.close().catch(() => undefined);
  }
}

type CliResult = PayoutRunResult & { transfers: 'none' | 'started' | 'left_to_worker' };

const TRANSFERS = {
  none: '',
  started: 'transfers: started (payout-run workflow)',
  left_to_worker: 'transfers: pending; Temporal did not answer, the next `svc worker` start sends them',
};

function describe(r: CliResult): string {
  const head = r.dry_run
    ? `dry run ${r.run_id}: nothing written; would pay`
    : r.already_run
      ? `run ${r.run_id} was already done; it paid (nothing paid now)`
      : `run ${r.run_id} paid`;
  const lines = r.payouts.map(
    (p) =>
      `  ${p.creator_id}: ${p.commission_count} commission(s), ${p.award_count} bonus award(s) (${formatUsd(p.awards_micros)}), gross ${formatUsd(p.gross_micros)}, clawbacks netted ${formatUsd(p.clawbacks_netted_micros)}, net ${formatUsd(p.net_micros)}${p.payout_id ? ` (${p.payout_id})` : ''}`,
  );
  const total = `total: gross ${formatUsd(r.totals.gross_micros)}, clawbacks netted ${formatUsd(r.totals.clawbacks_netted_micros)}, net ${formatUsd(r.totals.net_micros)}, platform fees ${formatUsd(r.totals.fees_micros)}`;
  return r.payouts.length === 0
    ? `${head} nothing (no payable commissions or approved bonus awards)\nrun id: ${r.run_id}`
    : [`${head}:`, ...lines, total, `run id: ${r.run_id}`, TRANSFERS[r.transfers]].filter(Boolean).join('\n');
}
