// GET /api/sdk/attribution and GET /api/sdk/recent-conversions: a paying user's attribution, and their recent
// purchase outcomes (for integration tests in apps). No amounts, no creator names.
import { findAttributedConversion, listRecentPurchaseEvents } from '../../db/user-purchases.js';
import { BadRequestError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { sdkAppOf } from './sdk-app.js';

export const attributionQuery = {
  type: 'object',
  properties: { app_user_id: { type: 'string', maxLength: 255 } },
} as const;

export const recentConversionsQuery = {
  type: 'object',
  properties: {
    app_user_id: { type: 'string', maxLength: 255 },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  },
} as const;

function requireUser(value: string | undefined): string {
  const user = value?.trim();
  if (!user) throw new BadRequestError('app_user_id is required.');
  return user;
}

export async function getAttribution(ctx: AppContext): Promise<void> {
  const appUserId = requireUser(inputOf<{ app_user_id?: string }>(ctx).app_user_id);
  const found = await findAttributedConversion(ctx.deps.db, sdkAppOf(ctx).appId, appUserId);
  ctx.body = found
    ? {
        attributed: true,
        referral_code: found.referral_code,
        campaign: { id: found.campaign_id, name: found.campaign_name },
        attribution_timestamp: new Date(found.attributed_at).toISOString(),
        attribution_method: found.attribution_method,
      }
    : { attributed: false, message: 'No attributed purchase for this user yet.' };
}

export async function getRecentConversions(ctx: AppContext): Promise<void> {
  const input = inputOf<{ app_user_id?: string; limit: number }>(ctx);
  const appUserId = requireUser(input.app_user_id);
  const conversions = await listRecentPurchaseEvents(ctx.deps.db, sdkAppOf(ctx).appId, appUserId, input.limit);
  ctx.body = {
    app_user_id: appUserId,
    count: conversions.length,
    attributed_count: conversions.filter((c) => c.attributed).length,
    conversions,
  };
}
