// `svc workflows rehydrate [--json]`: restarts the open conversion runs of an older workflow generation from
// PostgreSQL and records the current generation (workflow-clients/conversion-rehydrate.ts), so `svc worker` starts
// again. Against the configured database, Temporal and task queue (DATABASE_URL, TEMPORAL_ADDRESS,
// TEMPORAL_TASK_QUEUE: the runs its workers replay); a data folder of `svc dev`
// is moved by `svc dev --rehydrate`, which runs the same step before its worker starts.
import type { Knex } from 'knex';
import type { Config } from '../runtime/config.js';
import { createTemporalClient } from '../runtime/temporal-client.js';
import { withTemporalTarget } from '../runtime/temporal-target.js';
import { rehydrateConversions, type RehydrateSummary } from '../workflow-clients/conversion-rehydrate.js';
import { DEFAULT_TEMPORAL_ADDRESS } from './processes.js';

const USAGE = 'usage: svc workflows rehydrate [--json]';

export interface WorkflowsCliDeps {
  operatorConfig: () => Config;
  withDb: <T>(config: Config, fn: (db: Knex) => Promise<T>) => Promise<T>;
  usage: (message: string) => Error;
}

export async function runWorkflowsCommand(positionals: string[], flags: { json?: boolean }, deps: WorkflowsCliDeps): Promise<void> {
  if (positionals[0] !== 'rehydrate') throw deps.usage(USAGE);
  const { config, temporal: target } = withTemporalTarget(deps.operatorConfig());
  const temporal = createTemporalClient(config.TEMPORAL_ADDRESS ?? DEFAULT_TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, target.extras);
  const summary = await deps
    .withDb(config, (db) =>
      rehydrateConversions(db, temporal, { taskQueue: config.TEMPORAL_TASK_QUEUE, holdingDayMs: config.HOLDING_PERIOD_DAY_MS }),
    )
    .finally(() => temporal.connection.close());
  process.stdout.write(flags.json ? `${JSON.stringify(summary)}\n` : `${describe(summary)}\n`);
}

export function describe(s: RehydrateSummary): string {
  return (
    `conversion workflows at ` +
    `generation ${s.generation}: ${s.terminated} open runs terminated, ${s.restarted} started again from PostgreSQL`
  );
}
