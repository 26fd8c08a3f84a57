// Creator invitations of a campaign (POST /api/agent/campaigns/{id}/invitations and its batch, api/agent/invitations.ts
// translates them): each invitation is one transaction (db/invitations-writes.ts: capacity checked under the
// organization's lock, its email queued with it) carrying a personal join link valid 14 days; a PENDING one can be
// withdrawn, which frees its marketplace slot.
import type { Knex } from 'knex';
import type { AgentCampaignRow } from '../db/campaigns.js';
import type { InvitationView, InviteOutcome } from '../db/invitations.js';
import { createInvitation, withdrawInvitation } from '../db/invitations-writes.js';
import type { Config } from '../runtime/config.js';
import { generateToken, hashToken } from '../lib/credentials.js';

const INVITATION_TTL_DAYS = 14;

export interface CreatorInput {
  email: string;
  name?: string | null;
  message?: string | null;
  lang?: string | null;
}

/** The campaign's join page, with the personal invitation token when there is one. */
export const joinUrl = (dashboardUrl: string, campaignId: string, lang: string, token?: string) => {
  const invitation = token ? `invitation_token=${encodeURIComponent(token)}&` : '';
  return `${dashboardUrl}/join/${encodeURIComponent(campaignId)}?${invitation}lang=${encodeURIComponent(lang)}`;
};

export async function inviteCreator(
  deps: { db: Knex; config: Config },
  input: { campaign: AgentCampaignRow; appName: string; creator: CreatorInput; invitedBy: string },
): Promise<InviteOutcome> {
  const { campaign, appName, creator: c } = input;
  const token = generateToken('inv_');
  const lang = c.lang ?? 'en';
  const url = joinUrl(deps.config.DASHBOARD_URL, campaign.id, lang, token);
  const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000);
  const config = deps.config;
  return createInvitation(
    deps.db,
    {
      orgId: campaign.org_id,
      campaignId: campaign.id,
      email: c.email.trim(),
      name: c.name?.trim() || null,
      message: c.message?.trim() || null,
      lang: c.lang ?? null,
      tokenHash: hashToken(token),
      expiresAt,
      invitedBy: input.invitedBy,
      email_: (invitationId) => ({
        subject: `You're invited to promote ${appName}`,
        bodyText: [
          `Hi${c.name?.trim() ? ` ${c.name.trim()}` : ''},`,
          '',
          `You're invited to join the creator campaign "${String(campaign.name)}" for ${appName} ` +
            `and earn ${Number(campaign.commission_percentage)}% commission on the purchases you refer.`,
          ...(c.message?.trim() ? ['', c.message.trim()] : []),
          '',
          `Join here (your personal invitation link, valid until ${expiresAt.toISOString().slice(0, 10)}):`,
          url,
          '',
          'If you did not expect this email, ignore it.',
        ].join('\n'),
        templateData: { invitation_id: invitationId, campaign_id: campaign.id, lang },
      }),
    },
    { slots: config.MARKETPLACE_SLOTS, emails: config.DAILY_EMAIL_BUDGET },
  );
}

/** Withdraws a PENDING invitation; undefined when it is no longer pending. */
export async function withdrawCreatorInvitation(deps: { db: Knex }, input: { invitationId: string }): Promise<InvitationView | undefined> {
  return withdrawInvitation(deps.db, input.invitationId);
}
