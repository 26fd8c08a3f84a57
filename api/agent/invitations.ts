// Creators on the agent API (spec "Agent REST API", creators rows; "Invitation states"; wallet/invite capacity):
// POST /campaigns/{campaign_id}/invite (one creator, or a batch with per-item results and partial success),
// POST /invitations/{invitation_id}/withdraw, GET /invitations, GET /campaigns/{campaign_id}/join-link and
// GET /campaigns/{campaign_id}/affiliates.
//
// The invitation token is the creator's credential: it travels only in the invitation email (queued in
// email_outbox; delivered by a sender when SMTP_URL is configured, otherwise the queued row is the visible record)
// and is stored only as its SHA-256. No agent answer contains the token or its hash.
import { findApp } from '../../db/apps.js';
import { findCampaign, type AgentCampaignRow } from '../../db/campaigns.js';
import {
  findInvitation,
  INVITATION_STATUSES,
  listCampaignAffiliates,
  listInvitations,
  type InvitationView,
  type InvitationStatus,
} from '../../db/invitations.js';
import { inviteCreator, joinUrl, withdrawCreatorInvitation, type CreatorInput } from '../../actions/creator-invitations.js';
import { findOrgBillingSettings } from '../../db/organizations.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { canActivateCampaigns, minEscrowMicros } from '../../lib/escrow.js';
import { TOPUP_LINK_ENDPOINT } from './escrow-refusals.js';
import { nextAction } from './next-action.js';
import { ConflictError, PaymentRequiredError } from '../../errors/http-errors.js';
import { formatUsd } from '../../lib/money.js';
import { JOIN_PAGE_LANGUAGES } from '../public/join-page-text.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { actorIdOf, orgIdsOf, visibleTo } from './principal.js';

export const MAX_BATCH = 100;
const LANG = { type: 'string', pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$' } as const;
const CREATOR_FIELDS = {
  name: { type: ['string', 'null'], maxLength: 200 },
  message: { type: ['string', 'null'], maxLength: 2000 },
  lang: { ...LANG, type: ['string', 'null'] },
} as const;

/** One creator (`email`) or a batch (`creators`, up to 100); batch items are checked one by one (per-item results). */
export const inviteBody = {
  type: 'object',
  additionalProperties: false,
  oneOf: [{ required: ['email'] }, { required: ['creators'] }],
  properties: {
    email: { type: 'string', format: 'email', maxLength: 254 },
    ...CREATOR_FIELDS,
    creators: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH,
      items: { type: 'object', required: ['email'], properties: { email: { type: 'string', maxLength: 254 }, ...CREATOR_FIELDS } },
    },
  },
} as const;

export const listInvitationsQuery = {
  type: 'object',
  properties: {
    status: { enum: [...INVITATION_STATUSES, 'all'], default: 'PENDING' },
    campaign_id: { type: 'string', minLength: 1, maxLength: 64 },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
  },
} as const;

export const joinLinkQuery = { type: 'object', properties: { lang: LANG } } as const;

type InviteInput = Partial<CreatorInput> & { creators?: CreatorInput[] };

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function visibleCampaign(ctx: AppContext, id: string): Promise<AgentCampaignRow> {
  return visibleTo(ctx, await findCampaign(ctx.deps.db, id), 'Campaign');
}

interface EscrowState {
  ok: boolean;
  safeMicros: number;
  minMicros: number;
}

async function escrowState(ctx: AppContext, orgId: string): Promise<EscrowState> {
  const [settings, totals] = await Promise.all([findOrgBillingSettings(ctx.deps.db, orgId), getWalletTotals(ctx.deps.db, orgId)]);
  const minMicros = minEscrowMicros(settings?.min_escrow_micros, ctx.deps.config.MIN_ESCROW_USD);
  return { ok: canActivateCampaigns(totals.safeAvailableMicros, minMicros), safeMicros: totals.safeAvailableMicros, minMicros };
}

function invitationView(row: InvitationView) {
  return {
    invitation_id: row.id,
    campaign_id: row.campaign_id,
    email: row.email,
    name: row.name,
    lang: row.lang,
    status: row.status,
    expires_at: row.expires_at,
    withdrawn_at: row.withdrawn_at,
    accepted_at: row.accepted_at,
    creator_id: row.creator_id,
    created_at: row.created_at,
  };
}

export async function inviteHandler(ctx: AppContext): Promise<void> {
  const campaign = await visibleCampaign(ctx, ctx.params.campaign_id as string);
  const input = inputOf<InviteInput>(ctx);
  if (campaign.campaign_type === 'FREE_ACCESS')
    throw new ConflictError('A FREE_ACCESS campaign holds free-access codes, not creators: invite creators to another campaign.');
  if (campaign.status === 'archived') throw new ConflictError('This campaign is archived: creators cannot join it.');
  const escrow = await escrowState(ctx, campaign.org_id);
  if (!escrow.ok) {
    throw new PaymentRequiredError(
      `Inviting creators needs a wallet safe balance of at least ${formatUsd(escrow.minMicros)}; it is ${formatUsd(escrow.safeMicros)}. ` +
        `Get a top-up link for the human with ${TOPUP_LINK_ENDPOINT}, then retry.`,
    ).pointingAt(nextAction('svc_get_wallet_topup_link'));
  }
  const app = await findApp(ctx.deps.db, campaign.app_id as string);
  const invite = (c: CreatorInput) =>
    inviteCreator(ctx.deps, { campaign, appName: (app?.name as string | undefined) ?? 'the app', creator: c, invitedBy: actorIdOf(ctx) });

  if (!input.creators) {
    const outcome = await invite(input as CreatorInput);
    if (!outcome.ok) {
      if (outcome.reason === 'no_slots' || outcome.reason === 'no_email_budget') {
        throw new PaymentRequiredError(
          `${outcome.detail} More invite capacity comes with the wallet: get a top-up link for the human with ${TOPUP_LINK_ENDPOINT}.`,
        ).pointingAt(nextAction('svc_get_wallet_topup_link'));
      }
      throw new ConflictError(outcome.detail);
    }
    ctx.status = 201;
    ctx.body = { ...invitationView(outcome.invitation), email_status: 'queued' };
    return;
  }

  const results: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const c of input.creators) {
    const email = c.email.trim();
    const key = email.toLowerCase();
    if (!EMAIL_RE.test(email)) {
      results.push({ email, ok: false, error: 'invalid_email', detail: 'Not a valid email address.' });
      continue;
    }
    if (seen.has(key)) {
      results.push({ email, ok: false, error: 'duplicate_in_batch', detail: 'This email appears earlier in the batch.' });
      continue;
    }
    seen.add(key);
    const outcome = await invite({ ...c, email });
    results.push(
      outcome.ok
        ? {
            email,
            ok: true,
            invitation_id: outcome.invitation.id,
            status: outcome.invitation.status,
            expires_at: outcome.invitation.expires_at,
          }
        : { email, ok: false, error: outcome.reason, detail: outcome.detail },
    );
  }
  const created = results.filter((r) => r.ok).length;
  ctx.body = { campaign_id: campaign.id, results, created, failed: results.length - created };
}

export async function withdrawInvitationHandler(ctx: AppContext): Promise<void> {
  const id = ctx.params.invitation_id as string;
  const invitation = visibleTo(ctx, await findInvitation(ctx.deps.db, id), 'Invitation');
  const withdrawn = invitation.status === 'PENDING' ? await withdrawCreatorInvitation(ctx.deps, { invitationId: id }) : undefined;
  if (!withdrawn) {
    const now = await findInvitation(ctx.deps.db, id);
    const status = now?.status === 'PENDING' ? 'EXPIRED' : (now?.status ?? invitation.status);
    throw new ConflictError(`Only a PENDING invitation can be withdrawn; this one is ${status}.`);
  }
  ctx.body = {
    ...invitationView(withdrawn),
    note: 'Withdrawn: its invitation link no longer admits anyone and its marketplace slot is free.',
  };
}

export async function listInvitationsHandler(ctx: AppContext): Promise<void> {
  const q = inputOf<{ status: InvitationStatus | 'all'; campaign_id?: string; limit: number }>(ctx);
  if (q.campaign_id) await visibleCampaign(ctx, q.campaign_id);
  const rows = await listInvitations(ctx.deps.db, orgIdsOf(ctx), {
    status: q.status === 'all' ? undefined : q.status,
    campaignId: q.campaign_id,
    limit: q.limit,
  });
  ctx.body = { invitations: rows.map(invitationView), count: rows.length, status: q.status };
}

export async function joinLinkHandler(ctx: AppContext): Promise<void> {
  const campaign = await visibleCampaign(ctx, ctx.params.campaign_id as string);
  const requested = inputOf<{ lang?: string }>(ctx).lang;
  const lang = requested ?? 'en';
  const warnings: string[] = [];
  if (campaign.campaign_type === 'FREE_ACCESS')
    warnings.push('FREE_ACCESS campaigns hold free-access codes, not creators: nobody can join through this link.');
  if (campaign.status !== 'active')
    warnings.push(
      `The campaign is ${String(campaign.status)}: the join page answers "not ` +
        `open" until it is activated (POST /api/agent/campaigns/{campaign_id}/status).`,
    );
  if (campaign.campaign_type === 'private' || campaign.campaign_type === 'invite_only') {
    warnings.push(
      `The campaign is ${campaign.campaign_type}: creators need an invitation to join ` +
        `(POST /api/agent/campaigns/{campaign_id}/invite); this link alone is not enough.`,
    );
  }
  const escrow = await escrowState(ctx, campaign.org_id);
  if (!escrow.ok)
    warnings.push(
      `The wallet safe balance (${formatUsd(escrow.safeMicros)}) is below the minimum ` +
        `escrow (${formatUsd(escrow.minMicros)}); get a top-up link with ${TOPUP_LINK_ENDPOINT}.`,
    );
  const app = await findApp(ctx.deps.db, campaign.app_id as string);
  if (app && !app.ios_store_url && !app.android_store_url && !app.web_url) {
    warnings.push(
      'The app has no App Store, Play Store or web URL: referral links have ' +
        'nowhere to send the people creators bring (PATCH /api/agent/apps/{app_id}).',
    );
  }
  const primary = lang.toLowerCase().split(/[-_]/)[0]!;
  if (!(JOIN_PAGE_LANGUAGES as readonly string[]).includes(primary))
    warnings.push(`The join page does not speak '${lang}'; it shows English (it speaks ${JOIN_PAGE_LANGUAGES.join(', ')}).`);
  ctx.body = {
    url: requested
      ? joinUrl(ctx.deps.config.DASHBOARD_URL, campaign.id, lang)
      : `${ctx.deps.config.DASHBOARD_URL}/join/${encodeURIComponent(campaign.id)}`,
    lang,
    campaign_id: campaign.id,
    campaign_status: campaign.status,
    campaign_type: campaign.campaign_type,
    ready: warnings.length === 0,
    warnings,
  };
}

export async function listAffiliatesHandler(ctx: AppContext): Promise<void> {
  const campaign = await visibleCampaign(ctx, ctx.params.campaign_id as string);
  const rows = await listCampaignAffiliates(ctx.deps.db, campaign.id);
  ctx.body = {
    campaign_id: campaign.id,
    affiliates: rows,
    count: rows.length,
  };
}
