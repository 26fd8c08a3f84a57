// POST {base_url}/api/public/campaigns/{campaign_id}/join: a creator joins a campaign without an account
// (CONTRACT.md "Public creator join"). 201 for a new membership, 200 with the same answer when the email had
// already joined. Public: no credential; rate-limited per IP instead.
import { joinCampaign as joinCampaignAction } from '../../actions/join-campaign.js';
import { modulesPath } from '../creator-portal/qr.js';
import { cleanupCode, CODE_MAX_LENGTH, CODE_MIN_LENGTH, isValidCodeLength } from '../../lib/codes.js';
import { ValidationError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';

export const JOIN_RATE = { name: 'join', limit: 10, windowMs: 60_000 };

// Optional fields also take null, as a form serialiser may send them.
export const joinCampaignBody = {
  type: 'object',
  required: ['name', 'email'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    email: { type: 'string', format: 'email', maxLength: 254 },
    social_handle: { type: ['string', 'null'], maxLength: 100 },
    follower_count: { type: ['integer', 'null'], minimum: 0, maximum: 2_147_483_647 },
    code: { type: ['string', 'null'], maxLength: 64 },
    invitation_token: { type: ['string', 'null'], maxLength: 256 },
  },
} as const;

interface JoinCampaignBody {
  name: string;
  email: string;
  social_handle?: string | null;
  follower_count?: number | null;
  code?: string | null;
  invitation_token?: string | null;
}

/**
 * The contract's fields (`creator_id`, `code`, `campaign_id`), then where joining leads: the referral link, its QR
 * code as one SVG path of 1x1 modules in a `size` x `size` square (the portal's drawing, qr.tsx, so a page or an
 * app draws it without an encoder), and the creator portal. A new membership also mails the welcome (link, code, a
 * first sign-in link) in the join's own transaction; joining again mails nothing.
 */
export async function joinCampaign(ctx: AppContext): Promise<void> {
  const b = inputOf<JoinCampaignBody>(ctx);
  const { BASE_URL, DASHBOARD_URL } = ctx.deps.config;
  const name = b.name.trim();
  const request = {
    campaignId: (ctx.params as { campaignId: string }).campaignId,
    name,
    email: b.email,
    socialHandle: b.social_handle?.trim() || null,
    followerCount: b.follower_count ?? null,
    code: b.code == null ? undefined : requestedCode(b.code),
    invitationToken: b.invitation_token ?? undefined,
    joinIp: ctx.state.clientIp || null,
    joinUserAgent: ctx.get('user-agent') || null,
  };
  const result = await joinCampaignAction({ db: ctx.deps.db, baseUrl: BASE_URL, dashboardUrl: DASHBOARD_URL }, request);
  const qr = modulesPath(result.link);
  ctx.status = result.joined ? 201 : 200;
  ctx.body = {
    creator_id: result.creatorId,
    code: result.code,
    campaign_id: result.campaignId,
    referral_link: result.link,
    referral_link_qr: { size: qr.size, path: qr.d },
    portal_url: `${DASHBOARD_URL}/creator`,
  };
}

function requestedCode(raw: string): string {
  const code = cleanupCode(raw);
  if (isValidCodeLength(code)) return code;
  throw new ValidationError([
    {
      loc: ['body', 'code'],
      msg: `Code must have ${CODE_MIN_LENGTH} to ${CODE_MAX_LENGTH} characters from A-Z 0-9 _ - after cleanup (got '${code}')`,
      type: 'value_error',
    },
  ]);
}
