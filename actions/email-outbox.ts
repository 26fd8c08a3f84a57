// Delivers due mails of the email outbox (schema 0009) through an injected transport (e.g. SMTP from SMTP_URL),
// one transaction per mail: claimed with SKIP LOCKED so several senders never deliver one mail twice, marked sent,
// or backed off exponentially and given up as `failed` after MAX_ATTEMPTS. The worker's outbox sender
// (jobs/outbox-sender.ts) calls it on a short poll.
import type { Knex } from 'knex';
import type { EmailTransport } from '../db/email-outbox.js';
import { claimDueEmail, markEmailFailed, markEmailSent } from '../db/email-outbox-writes.js';

const MAX_ATTEMPTS = 8;

/** Delivers up to `limit` due mails; answers how many were sent. */
export async function deliverDueEmails(deps: { db: Knex; send: EmailTransport }, { limit = 20 }: { limit?: number } = {}): Promise<number> {
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const done = await deps.db.transaction(async (trx) => {
      const row = await claimDueEmail(trx);
      if (!row) return undefined;
      try {
        await deps.send(row);
        await markEmailSent(trx, row);
        return true;
      } catch (err) {
        await markEmailFailed(trx, row, String(err instanceof Error ? err.message : err), MAX_ATTEMPTS);
        return false;
      }
    });
    if (done === undefined) break;
    if (done) sent++;
  }
  return sent;
}
