// Dashboard accounts before sign-in (api/dashboard/account/accounts.tsx and verify-email.tsx translate the forms): sign-up of
// a new organization, a new verification or reset link, email verification and password reset. Each owns its
// transaction; the pages never learn whether an address has an account (sign-up of a taken address mails its owner).
import type { Knex } from 'knex';
import { spendAccountToken } from '../db/account-tokens-writes.js';
import { enqueueEmail } from '../db/email-outbox-writes.js';
import { addMembership, createOrganization, createUser } from '../db/organizations-writes.js';
import { markEmailVerified, recordLogin, setPassword } from '../db/users-writes.js';
import { createSession } from '../db/sessions-writes.js';
import { findSignUpTime } from '../db/users.js';
import { hashToken } from '../lib/credentials.js';
import { verificationSignsIn } from '../lib/verify-sign-in.js';
import { isUniqueViolation } from '../errors/pg-errors.js';
import { accountTokenHash, sendAccountMail, type AccountMail } from './account-mail.js';

export interface AccountDeps {
  db: Knex;
  /** Public origin of the dashboard (config DASHBOARD_URL): the links in the emails point there. */
  dashboardUrl: string;
}

/** A new organization with its owner, and the verification email; a taken address gets a note to its owner instead. */
export async function signUp(deps: AccountDeps, input: { orgName: string; email: string; passwordHash: string }): Promise<void> {
  const { db, dashboardUrl } = deps;
  const { email } = input;
  try {
    await db.transaction(async (trx) => {
      const user = await createUser(trx, { email, passwordHash: input.passwordHash });
      const created = await createOrganization(trx, { name: input.orgName, createdByUserId: user.id });
      await addMembership(trx, created.id, user.id, 'owner');
      await sendAccountMail(trx, dashboardUrl, { purpose: 'verify_email', email, userId: user.id });
    });
  } catch (err) {
    if (!isUniqueViolation(err, 'users_email_lower_uq')) throw err;
    // The address has an account: tell its owner, not the visitor.
    await enqueueEmail(db, {
      orgId: null,
      to: email,
      subject: 'Sign-up attempt with your email',
      bodyText:
        `Someone tried to create an account with this email. You already have one: sign in ` +
        `at ${dashboardUrl}/login or reset your password at ${dashboardUrl}/password-reset.`,
      template: 'account_exists',
      dedupKey: `account-exists:${email}:${new Date().toISOString().slice(0, 13)}`,
    });
  }
}

/** Mails a new verification or password-reset link to a known user. */
export async function mailAccountLink(
  deps: AccountDeps,
  input: { purpose: 'verify_email' | 'reset_password'; email: string; userId: string },
): Promise<void> {
  const mail: AccountMail = input;
  await sendAccountMail(deps.db, deps.dashboardUrl, mail);
}

/** The session a verification may open: the caller's fresh token (only its digest is stored) and the request's facts. */
export interface VerifySession {
  token: string;
  ip: string | null;
  userAgent: string | null;
  expiresAt: Date;
}

/**
 * Spends a verification token and marks the address verified, in one transaction; within an hour of the sign-up,
 * or in the browser that signed up (`signedUpHere`, told by its cookie), it also opens `session`
 * (lib/verify-sign-in.ts). Undefined when the token is not live.
 */
export async function verifyEmail(
  deps: { db: Knex },
  input: { token: string; now: Date; signedUpHere: (email: string) => boolean; session: VerifySession },
): Promise<{ user_id: string; email: string; signedIn: boolean } | undefined> {
  return deps.db.transaction(async (trx) => {
    const spent = await spendAccountToken(trx, 'verify_email', accountTokenHash(input.token));
    if (!spent?.user_id) return undefined;
    await markEmailVerified(trx, spent.user_id);
    const signedUpAt = await findSignUpTime(trx, spent.user_id);
    const signedIn =
      signedUpAt !== undefined && verificationSignsIn({ signedUpAt, now: input.now, sameBrowser: input.signedUpHere(spent.email) });
    if (signedIn) {
      const { token, ...session } = input.session;
      await createSession(trx, { userId: spent.user_id, tokenHash: hashToken(token), ...session });
      await recordLogin(trx, spent.user_id);
    }
    return { user_id: spent.user_id, email: spent.email, signedIn };
  });
}

/** Spends a reset token and sets the new password (ending every session); false when the token is not live. */
export async function resetPassword(deps: { db: Knex }, input: { token: string; passwordHash: string }): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const row = await spendAccountToken(trx, 'reset_password', accountTokenHash(input.token));
    if (!row?.user_id) return false;
    await setPassword(trx, row.user_id, input.passwordHash);
    // The reset link proved the address too.
    await markEmailVerified(trx, row.user_id);
    return true;
  });
}
