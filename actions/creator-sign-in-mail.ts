// The mailed sign-in link of the creator portal (docs/creator-portal.md "Sign-in"): a random token (only its digest
// is stored, db/creator-sessions.ts), valid 15 minutes and once, in a mail queued in the caller's transaction. The
// link opens a confirm page whose POST spends it, so a mail scanner fetching the link spends nothing.
import type { Knex } from 'knex';
import { createSignInToken } from '../db/creator-sessions-writes.js';
import { enqueueEmail } from '../db/email-outbox-writes.js';
import { generateToken, hashToken } from '../lib/credentials.js';

const SIGN_IN_TTL_SECONDS = 15 * 60;

export interface SignInMail {
  creatorId: string;
  email: string;
  name: string;
  /** Set when an organization added the address and invited the creator (the dashboard's creators page). */
  invitedBy?: { orgId: string; orgName: string };
}

function text(m: SignInMail, link: string, portal: string): { subject: string; body: string } {
  const intro = m.invitedBy
    ? `${m.invitedBy.orgName} added this address to your creator profile. In the creator ` +
      `portal you see your codes, clicks, installs, conversions, every commission and your payouts.`
    : 'You asked for a link to sign in to the creator portal.';
  return {
    subject: m.invitedBy ? `${m.invitedBy.orgName} invites you to the creator portal` : 'Your sign-in link to the creator portal',
    body:
      `Hello ${m.name},\n\n${intro}\n\nOpen this link to sign in (it works once, for 15 minutes):\n\n${link}\n\n` +
      `Later, ask for a new link at ${portal}/sign-in with this address.\n\nIf you did not ask for it, ignore this email.`,
  };
}

/** A new single-use sign-in link of the creator (only its digest is stored), valid `ttlSeconds`. */
export async function issueSignInLink(
  db: Knex,
  dashboardUrl: string,
  creatorId: string,
  ttlSeconds = SIGN_IN_TTL_SECONDS,
): Promise<{ id: string; link: string; portal: string }> {
  const token = generateToken('csl_');
  const id = await createSignInToken(db, { creatorId, tokenHash: hashToken(token), ttlSeconds });
  const portal = `${dashboardUrl}/creator`;
  return { id, link: `${portal}/sign-in/confirm?token=${encodeURIComponent(token)}`, portal };
}

/** Creates the link and queues its mail in `db` (pass a transaction to tie it to its cause). */
export async function mailSignInLink(db: Knex, dashboardUrl: string, m: SignInMail): Promise<void> {
  const { id, link, portal } = await issueSignInLink(db, dashboardUrl, m.creatorId);
  const { subject, body } = text(m, link, portal);
  await enqueueEmail(db, {
    orgId: m.invitedBy?.orgId ?? null,
    to: m.email,
    subject,
    bodyText: body,
    template: 'creator_sign_in',
    templateData: { creator_id: m.creatorId, token_id: id },
    dedupKey: `creator-sign-in:${id}`,
  });
}
