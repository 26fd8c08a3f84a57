// The email outbox's writes (reads and row types in db/email-outbox.ts): a mail queued in its cause's transaction
// (once per dedup key), and one due mail claimed and marked sent or backed off (actions/email-outbox.ts).
import type { Knex } from 'knex';
import type { OutboxRow, QueuedEmail } from './email-outbox.js';

export async function enqueueEmail(db: Knex, email: QueuedEmail): Promise<string> {
  const [row] = await db('email_outbox')
    .insert({
      org_id: email.orgId,
      to_address: email.to,
      subject: email.subject,
      body_text: email.bodyText,
      template: email.template ?? null,
      template_data: JSON.stringify(email.templateData ?? {}),
      dedup_key: email.dedupKey,
    })
    .onConflict('dedup_key')
    .ignore()
    .returning<{ id: string }[]>('id');
  if (row) return row.id;
  const existing = await db('email_outbox').where('dedup_key', email.dedupKey).first<{ id: string }>('id');
  return existing.id;
}

/** The next due mail, locked for this transaction (SKIP LOCKED: several senders never deliver one mail twice). */
export async function claimDueEmail(trx: Knex.Transaction): Promise<OutboxRow | undefined> {
  return trx('email_outbox')
    .where('status', 'queued')
    .where('next_attempt_at', '<=', trx.fn.now())
    .orderBy('next_attempt_at')
    .forUpdate()
    .skipLocked()
    .first<OutboxRow | undefined>('id', 'to_address', 'subject', 'body_text', 'body_html', 'attempts');
}

export async function markEmailSent(trx: Knex.Transaction, row: OutboxRow): Promise<void> {
  await trx('email_outbox')
    .where('id', row.id)
    .update({ status: 'sent', sent_at: trx.fn.now(), attempts: row.attempts + 1, last_error: null });
}

/** A failed send: tried again after an exponential back-off (30 s doubling, at most an hour), `failed` after `maxAttempts`. */
export async function markEmailFailed(trx: Knex.Transaction, row: OutboxRow, error: string, maxAttempts: number): Promise<void> {
  const attempts = row.attempts + 1;
  await trx('email_outbox')
    .where('id', row.id)
    .update({
      attempts,
      last_error: error.slice(0, 500),
      status: attempts >= maxAttempts ? 'failed' : 'queued',
      next_attempt_at: trx.raw(`now() + make_interval(secs => ?)`, [Math.min(3600, 2 ** attempts * 30)]),
    });
}
