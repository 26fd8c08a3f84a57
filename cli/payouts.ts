// `svc payouts run --org ORG_ID [--run-id ID] [--dry-run] [--json]`: the operator's payout run (humans only: no agent
// route or tool reaches it). The run is actions/payout-run.ts, the same rule of who is paid as every run; this file
// only translates flags in and the answer out (CONTRACT.md: payouts with their status words from
// lib/payout-status.ts, `held_over` with reasons). Phase 2 is started when Temporal answers, else the worker's resume
// pass takes the run up. A run id already used pays nothing again and answers that run's current state; without
// --run-id a fresh one is generated and printed, so the run can be repeated safely.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { runPayoutRun, type CreatorPayout, type HeldOver, type PayoutRunResult } from '../actions/payout-run.js';
import { findOrganization } from '../db/organizations.js';
import type { Config } from '../runtime/config.js';
import { formatUsd, toCentsMicros } from '../lib/money.js';
import { payoutStatus } from '../lib/payout-status.js';
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
    return runPayoutRun(
      { db, startTransfers: (run) => startTransfers(config, target.extras, run) },
      { orgId, runId, dryRun: flags['dry-run'] ?? false, createdBy: 'svc payouts run' },
    );
  });
  process.stdout.write(flags.json ? `${JSON.stringify(toJson(result))}\n` : `${describe(result)}\n`);
}

/** Phase 2 through Temporal; throws when it does not answer (the action then leaves the run to the worker). */
async function startTransfers(
  config: Config,
  extras: Parameters<typeof createTemporalClient>[2],
  run: { orgId: string; runId: string; createdBy: string },
): Promise<void> {
  const client = createTemporalClient(config.TEMPORAL_ADDRESS ?? DEFAULT_TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, extras);
  try {
    if (!(await isTemporalReachable(client))) throw new Error('Temporal did not answer');
    await startPayoutRun({ client, taskQueue: config.TEMPORAL_TASK_QUEUE }, run.runId, { orgId: run.orgId, createdBy: run.createdBy });
  } finally {
    await client.connection.close().catch(() => undefined);
  }
}

/** USD as sent (whole cents), a number with at most two decimals. */
const usd = (micros: number) => Number((toCentsMicros(micros) / 1_000_000).toFixed(2));

/** A payout's status words; a dry run's lines have none (nothing was recorded). */
function statusOf(p: CreatorPayout): { status: string | null; reason?: string } {
  if (!p.transfer_status) return { status: null };
  const s = payoutStatus({ transfer_status: p.transfer_status, failure: p.failure });
  return s.reason ? { status: s.status, reason: s.reason } : { status: s.status };
}

/** The CONTRACT.md answer: every recorded field, the USD amounts and status words beside them. */
function toJson(r: PayoutRunResult) {
  return {
    ...r,
    payouts: r.payouts.map((p) => {
      const { transfer_status: _status, failure: _failure, ...fields } = p;
      return { ...fields, net_usd: usd(p.net_micros), ...statusOf(p) };
    }),
    held_over: r.held_over.map((h: HeldOver) => ({
      creator_id: h.creator_id,
      payable_usd: usd(h.payable_micros),
      payable_micros: h.payable_micros,
      reason: h.reason,
    })),
    totals: { ...r.totals, net_usd: usd(r.totals.net_micros) },
  };
}

const TRANSFERS = {
  none: '',
  started: 'transfers: started (payout-run workflow)',
  left_to_worker: "transfers: pending; Temporal did not answer, the worker's resume pass sends them (PAYOUT_RESUME_EVERY_MS)",
};

function describe(r: PayoutRunResult): string {
  const head = r.dry_run
    ? `dry run ${r.run_id}: nothing written; would pay`
    : r.already_run
      ? `run ${r.run_id} was already done; it paid (nothing paid now)`
      : `run ${r.run_id} paid`;
  const lines = r.payouts.map((p) => {
    const words = p.transfer_status ? `: ${payoutStatus({ transfer_status: p.transfer_status, failure: p.failure }).text}` : '';
    return (
      `  ${p.creator_id}: ${p.commission_count} commission(s), ${p.award_count} bonus award(s) ` +
      `(${formatUsd(p.awards_micros)}), gross ${formatUsd(p.gross_micros)}, clawbacks ` +
      `netted ${formatUsd(p.clawbacks_netted_micros)}, ` +
      `net ${formatUsd(p.net_micros)}${p.payout_id ? ` (${p.payout_id})` : ''}${words}`
    );
  });
  const held = r.held_over.length
    ? [
        'held over (not paid now; their lines stay payable):',
        ...r.held_over.map((h) => `  ${h.creator_id}: ${formatUsd(h.payable_micros)}: ${h.reason}`),
      ]
    : [];
  const total =
    `total: gross ${formatUsd(r.totals.gross_micros)}, clawbacks ` +
    `netted ${formatUsd(r.totals.clawbacks_netted_micros)}, net ${formatUsd(r.totals.net_micros)}, ` +
    `platform fees ${formatUsd(r.totals.fees_micros)}`;
  const body =
    r.payouts.length === 0
      ? [`${head} nothing${r.held_over.length ? '' : ' (no payable commissions or approved bonus awards)'}`]
      : [`${head}:`, ...lines, total];
  return [...body, ...held, `run id: ${r.run_id}`, TRANSFERS[r.transfers]].filter(Boolean).join('\n');
}
