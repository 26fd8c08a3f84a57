// Nothing waits for a restart (docs/wallet-and-payouts.md "Two phases"): from the worker process, once at start and
// then every PAYOUT_RESUME_EVERY_MS, every payout run with a payout still `transfer_pending` is started again through
// workflow-clients/payout-runs.ts resumePayoutRuns. Safe to repeat: the start uses conflict policy USE_EXISTING and the
// workflow id is the run id (a scheduled run's too), so a run under way (sending, or waiting for funds) is joined and
// never started twice; one whose workflow ended without sending (a terminated run) is started afresh.
import type { Knex } from 'knex';
import type { Config } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import { resumePayoutRuns, type PayoutClientDeps } from '../workflow-clients/payout-runs.js';
import { startPeriodicPass } from './periodic-pass.js';

export function startPayoutResume(
  deps: PayoutClientDeps & { db: Knex },
  config: Pick<Config, 'PAYOUT_RESUME_EVERY_MS'>,
  logger: Logger,
): { stop(): Promise<void> } {
  return startPeriodicPass(
    {
      everyMs: config.PAYOUT_RESUME_EVERY_MS,
      run: () => resumePayoutRuns(deps),
      log: {
        done: 'pending payout runs started or joined',
        counted: 'runs',
        failed: 'payout resume pass failed (the next pass tries again)',
      },
    },
    logger,
  );
}
