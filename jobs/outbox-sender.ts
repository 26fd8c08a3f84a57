// Delivers the email outbox from the worker process while SMTP_URL is configured: a short poll, claim-and-send in
// db/email-outbox.ts (SKIP LOCKED, so several workers never send one email twice).
import type { Knex } from 'knex';
import { deliverDueEmails, type EmailTransport } from '../db/email-outbox.js';
import type { Logger } from '../runtime/logger.js';
import { startPeriodicPass } from './periodic-pass.js';

export function startOutboxSender(db: Knex, send: EmailTransport, logger: Logger, intervalMs = 5000): { stop(): Promise<void> } {
  return startPeriodicPass(
    {
      everyMs: intervalMs,
      run: () => deliverDueEmails(db, send),
      log: { done: 'outbox emails delivered', counted: 'sent', failed: 'outbox delivery pass failed' },
    },
    logger,
  );
}
