// Delivers the email outbox from the worker process while SMTP_URL is configured: a short poll, each pass one call
// of actions/email-outbox.ts (claim-and-send with SKIP LOCKED, so several workers never send one email twice).
import type { Knex } from 'knex';
import { deliverDueEmails } from '../actions/email-outbox.js';
import type { EmailTransport } from '../db/email-outbox.js';
import type { Logger } from '../runtime/logger.js';
import { startPeriodicPass } from './periodic-pass.js';

export function startOutboxSender(db: Knex, send: EmailTransport, logger: Logger, intervalMs = 5000): { stop(): Promise<void> } {
  return startPeriodicPass(
    {
      everyMs: intervalMs,
      run: () => deliverDueEmails({ db, send }),
      log: { done: 'outbox emails delivered', counted: 'sent', failed: 'outbox delivery pass failed' },
    },
    logger,
  );
}
