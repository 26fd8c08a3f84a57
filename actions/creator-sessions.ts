// Creator-portal sign-in (docs/creator-portal.md "Sign-in"; api/creator-portal/sign-in.tsx translates the forms and
// sets the cookie): mailing a single-use link, spending it to open a session, signing out. Only digests of tokens
// reach SQL (db/creator-sessions-writes.ts).
import type { Knex } from 'knex';
import { revokeCreatorSessionByHash, spendSignInToken } from '../db/creator-sessions-writes.js';
import { CREATOR_SESSION_PREFIX, generateToken, hashToken } from '../lib/credentials.js';
import { mailSignInLink, type SignInMail } from './creator-sign-in-mail.js';

export async function mailCreatorSignInLink(deps: { db: Knex; dashboardUrl: string }, input: SignInMail): Promise<void> {
  await mailSignInLink(deps.db, deps.dashboardUrl, input);
}

/** Spends the mailed link and opens a session; its token for the cookie, or undefined when the link is spent. */
export async function signInCreator(
  deps: { db: Knex },
  input: { linkToken: string; ip: string | null; userAgent: string | null; ttlSeconds: number },
): Promise<string | undefined> {
  const session = generateToken(CREATOR_SESSION_PREFIX);
  const spent = await spendSignInToken(deps.db, hashToken(input.linkToken), {
    tokenHash: hashToken(session),
    ip: input.ip,
    userAgent: input.userAgent,
    ttlSeconds: input.ttlSeconds,
  });
  return spent ? session : undefined;
}

export async function signOutCreator(deps: { db: Knex }, input: { sessionToken: string }): Promise<void> {
  await revokeCreatorSessionByHash(deps.db, hashToken(input.sessionToken));
}
