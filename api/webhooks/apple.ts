// POST /api/webhooks/apple/{app_id} (CONTRACT.md "Store notifications"): App Store Server Notifications V2, body
// `{"signedPayload": "..."}` as Apple sends it or a developer forwards it. Verified and kept durably first (raw
// intake, once per notificationUUID), then answered 200; a workflow normalises it (docs/store-direct.md "Server
// notifications"). 401 for anything that does not verify or belongs to another app (nothing recorded); 503 for
// what Apple should deliver again once a human fixed our side (no roots, no Apple id, not switched); 200 with the
// reason, nothing recorded, when the app's iOS purchases go through the subscription provider.
import { NotFoundError, UnauthorizedError, UnavailableError } from '../../errors/http-errors.js';
import { takeInAppleNotification } from '../../workflow-clients/apple-notification-intake.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';

const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;
const UNKNOWN_APP = 'No app with this id. The notification URL is /api/webhooks/apple/{app_id} with the id of an existing app.';

export const appleNotificationBody = {
  type: 'object',
  required: ['signedPayload'],
  properties: { signedPayload: { type: 'string', minLength: 1, maxLength: 262_144 } },
} as const;

/** Per app: far above what Apple sends an app, low enough that a flood cannot starve the others. */
export const APPLE_NOTIFICATION_RATE = {
  name: 'apple-notification',
  limit: 100,
  windowMs: 1000,
  key: (ctx: AppContext) => String(ctx.params.appId),
};

export async function appleNotification(ctx: AppContext): Promise<void> {
  const appId = ctx.params.appId as string;
  if (!APP_ID.test(appId)) throw new NotFoundError(UNKNOWN_APP);
  const { signedPayload } = inputOf<{ signedPayload: string }>(ctx);
  const outcome = await takeInAppleNotification(
    {
      db: ctx.deps.db,
      config: ctx.deps.config,
      temporal: ctx.deps.temporal,
      taskQueue: ctx.deps.config.TEMPORAL_TASK_QUEUE,
      warn: (context, message) => ctx.deps.logger.warn(context, message),
    },
    appId,
    signedPayload,
  );
  switch (outcome.kind) {
    case 'taken':
      ctx.body = {
        received: true,
        notification_uuid: outcome.notificationUUID,
        notification_type: outcome.notificationType,
        duplicate: !outcome.inserted,
      };
      return;
    case 'ignored':
      ctx.deps.logger.info({ appId, reason: outcome.reason }, 'App Store notification acknowledged and ignored');
      ctx.body = { received: true, ignored: true, reason: outcome.reason };
      return;
    case 'unknown_app':
      throw new NotFoundError(UNKNOWN_APP);
    case 'rejected':
      throw new UnauthorizedError(outcome.detail);
    case 'unavailable':
      throw new UnavailableError(outcome.detail, 60);
  }
}
