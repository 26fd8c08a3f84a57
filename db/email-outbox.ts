// The email outbox (schema 0009): emails are queued in the same transaction as their cause and delivered later.
// Delivery needs a transport: when SMTP_URL is configured a sender hands due rows to it; without one nothing is
// sent and the queued row is the visible record (the agent API's invitation list and the operator's database show
// it). The transport is injected, so no credential or SMTP detail ever reaches an API answer. Read here; queued and
// delivered through db/email-outbox-writes.ts (delivery: actions/email-outbox.ts).
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
