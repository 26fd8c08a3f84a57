// The email outbox (schema 0009): emails are queued in the same transaction as their cause and delivered later.
// Delivery needs a transport: when SMTP_URL is configured a sender hands due rows to it; without one nothing is
// sent and the queued row is the visible record (the agent API's invitation list and the operator's database show
// it). The transport is injected, so no credential or SMTP detail ever reaches an API answer.
import type { Knex } from 'knex';

export interface QueuedEmail {
  orgId: string | null;
  to: string;
  subject: string;
  bodyText: string;
  template?: string;
  /** Non-secret data only: this column is readable by operators. */
  templateData?: Record<string, unknown>;
  /** Unique: a retried cause cannot queue the same email twice. */
  dedupKey: string;
}

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

/** What an operator or developer reads of a mail (`svc mail`, the dev mailbox): the text carries the links. */
export interface OutboxMail {
  id: string;
  to_address: string;
  subject: string;
  body_text: string;
  template: string | null;
  status: 'queued' | 'sent' | 'failed';
  created_at: Date;
}

/** The latest mails, newest first; only those to `to` (any case) when given. */
export async function listOutboxMails(db: Knex, opts: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
  const q = db('email_outbox')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(opts.limit ?? 50);
  if (opts.to !== undefined) q.whereRaw('lower(to_address) = lower(?)', [opts.to]);
  return q.select<OutboxMail[]>('id', 'to_address', 'subject', 'body_text', 'template', 'status', 'created_at');
}

export interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  attempts: number;
}
export type EmailTransport = (email: OutboxRow) => Promise<void>;

const MAX_ATTEMPTS = 8;

/**
 * Delivers up to `limit` due emails through `send` (e.g. an SMTP transport built from SMTP_URL). Rows are claimed
 * with SKIP LOCKED so several senders never deliver one email twice; a failure backs off exponentially and gives
 * up as `failed` after MAX_ATTEMPTS. Returns how many were sent.
 */
export async function deliverDueEmails(db: Knex, send: EmailTransport, limit = 20): Promise<number> {
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const done = await db.transaction(async (trx) => {
      const row = await trx('email_outbox')
        .where('status', 'queued')
        .where('next_attempt_at', '<=', trx.fn.now())
        .orderBy('next_attempt_at')
        .forUpdate()
        .skipLocked()
        .first<OutboxRow | undefined>('id', 'to_address', 'subject', 'body_text', 'body_html', 'attempts');
      if (!row) return undefined;
      try {
        await send(row);
        await trx('email_outbox')
          .where('id', row.id)
          .update({ status: 'sent', sent_at: trx.fn.now(), attempts: row.attempts + 1, last_error: null });
        return true;
      } catch (err) {
        const attempts = row.attempts + 1;
        await trx('email_outbox')
          .where('id', row.id)
          .update({
            attempts,
            last_error: String(err instanceof Error ? err.message : err).slice(0, 500),
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
            next_attempt_at: trx.raw(`now() + make_interval(secs => ?)`, [Math.min(3600, 2 ** attempts * 30)]),
          });
        return false;
      }
    });
    if (done === undefined) break;
    if (done) sent++;
  }
  return sent;
}
