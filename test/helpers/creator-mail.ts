// Reading a creator's mail back in tests, in this one place, through the outbox read `svc mail` uses
// (db/email-outbox.ts); the browser proof reads the link through `svc mail` itself.
import type { Knex } from 'knex';
import { listOutboxMails, type OutboxMail as MailView } from '../../db/email-outbox.js';

export async function mailsTo(db: Knex, email: string): Promise<MailView[]> {
  return listOutboxMails(db, { to: email });
}

/** The links of a mail's text, in order. */
export const linksOf = (mail: MailView): string[] => mail.body_text.match(/https?:\/\/[^\s]+/g) ?? [];

/** The newest creator sign-in link mailed to `email`, or undefined when none was. */
export async function latestSignInLink(db: Knex, email: string): Promise<string | undefined> {
  const mail = (await mailsTo(db, email)).find((m) => m.template === 'creator_sign_in');
  return mail && linksOf(mail).find((l) => l.includes('/creator/sign-in/confirm?token='));
}
