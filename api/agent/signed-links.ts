// POST /api/agent/wallet/topup-link, /apps/{app_id}/credential-setup-link and /apps/{app_id}/asset-upload-link:
// short-lived, single-purpose signed URLs (lib/signed-links.ts) to dashboard pages a human opens. The answer holds
// only the URL and its expiry: no secret, no money, and nothing moves until the human acts on the page.
import { findApp } from '../../db/apps.js';
import { UnavailableError } from '../../errors/http-errors.js';
import { createSignedLink, LINK_TTL_SECONDS, type LinkPurpose } from '../../lib/signed-links.js';
import { assertOrgAccess } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { agentOf, visibleTo } from './principal.js';

export const topupLinkBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    org_id: { type: 'string', minLength: 1, maxLength: 64, description: 'One of the granted organizations (default: the first)' },
    amount_usd: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      description: 'Suggested amount pre-filled on the page (a hint only)',
    },
  },
} as const;

export const credentialLinkBody = {
  type: 'object',
  additionalProperties: false,
  required: ['platform'],
  properties: {
    platform: {
      type: 'string',
      enum: ['ios', 'android', 'subprovider'],
      description: "Store credentials (ios, android) or the subscription provider's secret API key (subprovider)",
    },
  },
} as const;

function link(ctx: AppContext, purpose: LinkPurpose, org: string, app?: string, extra?: Record<string, string>) {
  const masterKey = ctx.deps.config.SVC_MASTER_KEY;
  if (!masterKey) throw new UnavailableError('Signed links need SVC_MASTER_KEY to be configured.');
  const signed = createSignedLink({ masterKey, dashboardUrl: ctx.deps.config.DASHBOARD_URL, purpose, org, app, extra });
  ctx.body = {
    url: signed.url,
    expires_at: signed.expires_at,
    expires_in_seconds: LINK_TTL_SECONDS,
    purpose,
    single_use: true,
    note: 'Give this URL to a human; it works once, for 15 minutes, for this purpose only.',
  };
}

export async function topupLinkHandler(ctx: AppContext): Promise<void> {
  const agent = agentOf(ctx);
  const input = inputOf<{ org_id?: string; amount_usd?: number }>(ctx);
  const orgId = input.org_id ?? agent.orgIds[0];
  assertOrgAccess(agent, orgId, 'Organization not found');
  link(ctx, 'wallet-topup', orgId!, undefined, input.amount_usd === undefined ? undefined : { amount_usd: String(input.amount_usd) });
}

export async function credentialLinkHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  link(ctx, 'credential-upload', app.org_id, app.id, { platform: inputOf<{ platform: string }>(ctx).platform });
}

export async function assetLinkHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  link(ctx, 'asset-upload', app.org_id, app.id);
}
