// `svc mail --to EMAIL [--json]`: the mails the service wrote to its outbox for one address, newest first, with the
// links they carry (CONTRACT.md "Commands"): how a developer, a script or a test follows a sign-up, verification,
// reset, invitation or creator sign-in link in any environment without a database client. Reads only.
import type { Knex } from 'knex';
import { listOutboxMails } from '../db/email-outbox.js';
import type { Config } from '../runtime/config.js';
import { linksIn } from '../lib/mail-links.js';

export interface MailCliDeps {
  operatorConfig: () => Config;
  withDb: <T>(config: Config, fn: (db: Knex) => Promise<T>) => Promise<T>;
}

export interface MailView {
  to: string;
  subject: string;
  created_at: string;
  status: 'queued' | 'sent' | 'failed';
  links: string[];
}

async function mailsTo(db: Knex, to: string): Promise<MailView[]> {
  const rows = await listOutboxMails(db, { to, limit: 100 });
  return rows.map((m) => ({
    to: m.to_address,
    subject: m.subject,
    created_at: new Date(m.created_at).toISOString(),
    status: m.status,
    links: linksIn(m.body_text),
  }));
}

export async function runMailCommand(flags: { to?: string; json?: boolean }, deps: MailCliDeps): Promise<void> {
  const to = flags.to!.trim();
  const mails = await deps.withDb(deps.operatorConfig(), (db) => mailsTo(db, to));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ mails })}\n`);
    return;
  }
  const text =
    mails.length === 0
      ? `no mail to ${to}`
      : mails.map((m) => [`${m.created_at}  ${m.status.padEnd(6)}  ${m.subject}`, ...m.links.map((l) => `  ${l}`)].join('\n')).join('\n');
  process.stdout.write(`${text}\n`);
}
