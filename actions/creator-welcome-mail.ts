// The mail a creator gets on joining a campaign (docs/client-api.md "Creator join"): their referral link and code,
// and a first single-use sign-in link to the creator portal (issued like the portal's own, creator-sign-in-mail.ts), queued
// in the join's transaction so a join that rolls back mails nothing. Decision: this first link is valid for a day
// rather than the 15 minutes of a link the creator asks for, because a welcome mail is often read later; it is
// still single-use, and a creator can always ask for a new one on the sign-in page.
import type { Knex } from 'knex';
import { enqueueEmail } from '../db/email-outbox-writes.js';
import { issueSignInLink } from './creator-sign-in-mail.js';

const WELCOME_LINK_TTL_SECONDS = 24 * 60 * 60;

export interface WelcomeMail {
  creatorId: string;
  email: string;
  name: string;
  orgId: string;
  campaignId: string;
  campaignName: string;
  code: string;
  referralLink: string;
}

export async function mailWelcome(db: Knex, dashboardUrl: string, m: WelcomeMail): Promise<void> {
  const { id, link, portal } = await issueSignInLink(db, dashboardUrl, m.creatorId, WELCOME_LINK_TTL_SECONDS);
  await enqueueEmail(db, {
    orgId: m.orgId,
    to: m.email,
    subject: `You joined ${m.campaignName}: your referral link and code`,
    bodyText:
      `Hello ${m.name},\n\nYou joined ${m.campaignName}. Purchases made through your link or with your code earn you commission.\n\n` +
      `Your referral link:\n\n${m.referralLink}\n\nYour code: ${m.code}\n\n` +
      `In the creator portal you see your clicks, installs, every commission, what you are owed and when, and where your ` +
      `payouts go. Open this link to sign in (it works once, for 24 hours):\n\n${link}\n\n` +
      `Later, ask for a new link at ${portal}/sign-in with this address.\n\nIf you did not join, ignore this email.`,
    template: 'creator_welcome',
    templateData: { creator_id: m.creatorId, campaign_id: m.campaignId, token_id: id },
    dedupKey: `creator-welcome:${m.campaignId}:${m.creatorId}`,
  });
}
