// Delivers the email outbox from the worker process while SMTP_URL is configured: a short poll, claim-and-send in
// db/email-outbox.ts (SKIP LOCKED, so several workers never send one email twice).
import type { Knex } from 'knex';
import { deliverDueEmails, type EmailTransport } from '../db/email-outbox.js';
import type { Logger } from '../runtime/logger.js';

export function startOutboxSender(db: Knex, send: EmailTransport, logger: Logger, intervalMs = 5000): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  // One pass at a time: a slow pass is not overlapped by the next tick, so stop() awaits the only pass in flight
  // (it used to await only the latest tick while an earlier one was still between sending and marking sent).
  const tick = () => {
    if (busy) return;
    busy = true;
    running = deliverDueEmails(db, send)
      .then((n) => { if (n > 0) logger.info({ sent: n }, 'outbox emails delivered'); })
      .catch((err: unknown) => logger.warn({ err }, 'outbox delivery pass failed'))
      .finally(() => { busy = false; });
  };
  const timer = setInterval(() => { if (!stopped) tick(); }, intervalMs);
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
