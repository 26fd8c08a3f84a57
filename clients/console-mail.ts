// svc dev's mail transport: each outbox mail is written to the terminal (stderr) with its links, so a developer
// follows a verification, reset or invitation link without a mail server. Wraps the SMTP transport when SMTP_URL is
// set too (the mail is then logged and delivered). Only `svc dev` builds it (cli/processes.ts `devMode`).
import type { EmailTransport, OutboxRow } from '../db/email-outbox.js';
import { linksIn } from '../lib/mail-links.js';

function formatMailForLog(email: Pick<OutboxRow, 'to_address' | 'subject' | 'body_text'>): string {
  const links = linksIn(email.body_text);
  return [`[mail] to ${email.to_address}: ${email.subject}`, ...links.map((l) => `  ${l}`), ''].join('\n');
}

export function createConsoleTransport(write: (text: string) => void, next?: EmailTransport): EmailTransport {
  return async (email) => {
    write(formatMailForLog(email));
    if (next) await next(email);
  };
}
