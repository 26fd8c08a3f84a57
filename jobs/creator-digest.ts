// Composes the creators' earnings digests from the worker process (actions/creator-digests.ts): a poll every minute (or
// every CREATOR_DIGEST_EVERY_MS when shorter) that queues one outbox mail per creator whose period has passed and
// who has unsent money changes. Several workers may run it: each creator's row is claimed with SKIP LOCKED.
import type { Knex } from 'knex';
import { sendDueDigests } from '../actions/creator-digests.js';
import type { Config } from '../runtime/config.js';
import { unsubscribeUrl } from '../lib/creator-unsubscribe.js';
import type { Logger } from '../runtime/logger.js';
import { startPeriodicPass } from './periodic-pass.js';

export function startCreatorDigest(
  db: Knex,
  config: Pick<Config, 'CREATOR_DIGEST_EVERY_MS' | 'DASHBOARD_URL' | 'SVC_MASTER_KEY'>,
  logger: Logger,
): { stop(): Promise<void> } {
  const masterKey = config.SVC_MASTER_KEY;
  if (!masterKey) {
    logger.warn('creator digests are not composed: SVC_MASTER_KEY is unset, and their unsubscribe links are signed with it');
    return { stop: async () => undefined };
  }
  const opts = {
    everyMs: config.CREATOR_DIGEST_EVERY_MS,
    dashboardUrl: config.DASHBOARD_URL,
    unsubscribeUrl: (id: string) => unsubscribeUrl(masterKey, config.DASHBOARD_URL, id),
  };
  return startPeriodicPass(
    {
      everyMs: Math.min(60_000, config.CREATOR_DIGEST_EVERY_MS),
      run: () => sendDueDigests({ db }, opts),
      log: { done: 'creator digests queued', counted: 'queued', failed: 'creator digest pass failed' },
    },
    logger,
  );
}
