// The emails of dashboard accounts: a one-time token (only its digest is stored, db/account-tokens.ts) and an email
// carrying the link, queued in the outbox in the same transaction (jobs/outbox-sender delivers it when SMTP_URL is
// set; without it the queued row is the record). Account emails belong to no organization, so they never spend an
// organization's daily invitation budget; a teammate invitation does name its organization.
import type { Knex } from 'knex';
import { createAccountToken } from '../db/account-tokens-writes.js';
import { enqueueEmail } from '../db/email-outbox-writes.js';
import { generateToken, hashToken } from '../lib/credentials.js';
import type { AccountTokenPurpose, MembershipRole } from '../schema/types.js';

const TOKEN_TTL_SECONDS: Record<AccountTokenPurpose, number> = { verify_email: 48 * 3600, reset_password: 3600, invite: 7 * 24 * 3600 };
const PREFIX = 'acct_';

const PATHS: Record<AccountTokenPurpose, string> = {
  verify_email: '/verify-email?token=',
  reset_password: '/password-reset/',
  invite: '/invite/',
};

export const accountTokenHash = (token: string): string => hashToken(token);

export interface AccountMail {
  purpose: AccountTokenPurpose;
  email: string;
  userId?: string | null;
  orgId?: string | null;
  orgName?: string;
  role?: MembershipRole;
  createdByUserId?: string | null;
}

function text(m: AccountMail, link: string): { subject: string; body: string } {
  switch (m.purpose) {
    case 'verify_email':
      return {
        subject: 'Verify your email',
        body:
          `Welcome. Open this link to verify your email and finish creating your ` +
          `account (valid 48 hours):\n\n${link}\n\nIf you did not sign up, ignore this email.`,
      };
    case 'reset_password':
      return {
        subject: 'Reset your password',
        body:
          `Open this link to choose a new password (valid 1 hour, ` +
          `once):\n\n${link}\n\nIf you did not ask for it, ignore this email; your password stays as it is.`,
      };
    case 'invite':
      return {
        subject: `You are invited to ${m.orgName ?? 'an organization'}`,
        body:
          `You are invited to join ${m.orgName ?? 'an organization'} ` +
          `as ${m.role}. Open this link to accept (valid 7 days, once):\n\n${link}`,
      };
  }
}

/** Creates the token and queues the email with its link, in `db` (pass a transaction to tie it to its cause). */
export async function sendAccountMail(db: Knex, dashboardUrl: string, m: AccountMail): Promise<string> {
  const token = generateToken(PREFIX);
  const id = await createAccountToken(db, {
    purpose: m.purpose,
    tokenHash: accountTokenHash(token),
    email: m.email,
    userId: m.userId,
    orgId: m.orgId,
    role: m.role,
    createdByUserId: m.createdByUserId,
    ttlSeconds: TOKEN_TTL_SECONDS[m.purpose],
  });
  const { subject, body } = text(m, `${dashboardUrl}${PATHS[m.purpose]}${encodeURIComponent(token)}`);
  await enqueueEmail(db, {
    orgId: m.purpose === 'invite' ? (m.orgId ?? null) : null,
    to: m.email,
    subject,
    bodyText: body,
    template: `account_${m.purpose}`,
    templateData: { token_id: id },
    dedupKey: `account:${id}`,
  });
  return id;
}
