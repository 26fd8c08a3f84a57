// Reading a creator's mail back in tests, in this one place: today through db/email-outbox.ts's read; once
// `npx svc mail --to EMAIL --json` exists, this is the one function to switch to it.
import type { Knex } from 'knex';
import { listEmailsTo, type MailView } from '../../db/email-outbox.js';

export async function mailsTo(db: Knex, email: string): Promise<MailView[]> {
  return listEmailsTo(db, email);
}

/** The links of a mail's text, in order. */
export const linksOf = (mail: MailView): string[] => mail.body_text.match(/https?:\/\/[^\s]+/g) ?? [];

/** The newest creator sign-in link mailed to `email`, or undefined when none was. */
export async function latestSignInLink(db: Knex, email: string): Promise<string | undefined> {
  const mail = (await mailsTo(db, email)).find((m) => m.template === 'creator_sign_in');
  return mail && linksOf(mail).find((l) => l.includes('/creator/sign-in/confirm?token='));
}
