// Composes the owners' digests of new commission reviews from the worker process (actions/owner-review-digests.ts):
// a poll every minute (or every OWNER_DIGEST_EVERY_MS when shorter) that queues one outbox mail per organization
// owner with reviews raised since their last digest, at most once per period. Several workers may run it: each
// owner's membership row is claimed with SKIP LOCKED.
import type { Knex } from 'knex';
import { sendDueOwnerDigests } from '../actions/owner-review-digests.js';
import type { Config } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import { startPeriodicPass } from './periodic-pass.js';

export function startOwnerReviewDigest(
  db: Knex,
  config: Pick<Config, 'OWNER_DIGEST_EVERY_MS' | 'DASHBOARD_URL'>,
  logger: Logger,
): { stop(): Promise<void> } {
  const opts = { everyMs: config.OWNER_DIGEST_EVERY_MS, dashboardUrl: config.DASHBOARD_URL };
  return startPeriodicPass(
    {
      everyMs: Math.min(60_000, config.OWNER_DIGEST_EVERY_MS),
      run: () => sendDueOwnerDigests({ db }, opts),
      log: { done: 'owner review digests queued', counted: 'queued', failed: 'owner review digest pass failed' },
    },
    logger,
  );
}
