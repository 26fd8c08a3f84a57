// GET /api/agent/apps/{app_id}/verify-user-conversions?app_user_id=: whether one app user's purchases reached the
// service and were attributed: the user's conversions (every environment, each marked), their purchase events, and
// the creator the user was attributed to before any purchase (link click or code entry). No amounts.
import { findApp } from '../../db/apps.js';
import { listPurchaseEventLog, listUserConversions } from '../../db/recent-events.js';
import { findUserAttribution } from '../../db/user-attributions.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { visibleTo } from './principal.js';
import { webhookView } from './recent-events.js';

export const verifyUserQuery = {
  type: 'object',
  required: ['app_user_id'],
  properties: {
    app_user_id: { type: 'string', minLength: 1, maxLength: 512, description: 'The app user id the app identified the user with' },
  },
} as const;

const LIST_LIMIT = 100;

export async function verifyUserConversionsHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { app_user_id: userId } = inputOf<{ app_user_id: string }>(ctx);
  const [conversions, events, attribution] = await Promise.all([
    listUserConversions(ctx.deps.db, app.id, userId, LIST_LIMIT),
    listPurchaseEventLog(ctx.deps.db, app.id, { appUserId: userId, limit: LIST_LIMIT }),
    findUserAttribution(ctx.deps.db, app.id, [userId]),
  ]);
  // The user's creator is the one of their first attributed conversion (a converted user stays with that creator).
  const first = conversions.filter((c) => c.attributed).at(-1);
  ctx.body = {
    app_id: app.id,
    app_user_id: userId,
    attributed: first !== undefined,
    referral_code: first?.referral_code ?? null,
    user_attribution: attribution
      ? {
          referral_code: attribution.referral_code,
          method: attribution.method,
          campaign_id: attribution.campaign_id,
          converted: attribution.converted_at !== null,
        }
      : null,
    conversions,
    events: events.map(webhookView),
  };
}
