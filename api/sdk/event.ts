// POST /api/sdk/event: a custom funnel event. Never creates a conversion or commission.
import { recordSdkEvent } from '../../actions/sdk-intake/event.js';
import { camelAliases } from '../../lib/aliases.js';
import { cleanupCode } from '../../lib/codes.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { sdkAppOf } from './sdk-app.js';

export const eventBody = {
  type: 'object',
  required: ['event_type', 'app_user_id'],
  properties: {
    event_type: { type: 'string', minLength: 1, maxLength: 100 },
    app_user_id: { type: 'string', minLength: 1, maxLength: 255 },
    properties: { type: 'object' },
    referral_code: { type: ['string', 'null'], maxLength: 64 },
    event_id: { type: 'string', minLength: 1, maxLength: 128 },
    platform: { enum: ['ios', 'android', 'web'] },
  },
} as const;

export const eventAliases = camelAliases(Object.keys(eventBody.properties));

interface EventInput {
  event_type: string;
  app_user_id: string;
  properties?: Record<string, unknown>;
  referral_code?: string | null;
  event_id?: string;
  platform?: 'ios' | 'android' | 'web';
}

export async function trackEvent(ctx: AppContext): Promise<void> {
  const b = inputOf<EventInput>(ctx);
  const outcome = await recordSdkEvent(ctx.deps, {
    appId: sdkAppOf(ctx).appId,
    eventId: b.event_id ?? null,
    eventType: b.event_type,
    appUserId: b.app_user_id,
    properties: b.properties ?? {},
    referralCode: b.referral_code ? cleanupCode(b.referral_code) || null : null,
    platform: b.platform ?? null,
    ip: ctx.state.clientIp || null,
  });
  ctx.body = outcome.duplicate
    ? { tracked: true, event_id: outcome.eventId, duplicate: true, dedup_reason: outcome.reason }
    : { tracked: true, event_id: outcome.eventId };
}
