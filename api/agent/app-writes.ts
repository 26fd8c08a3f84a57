// PATCH /api/agent/apps/{app_id} (descriptive settings; never a credential, never the slug) and
// POST /api/agent/apps/{app_id}/regenerate-webhook-secret (the new secret is returned once; the old one dies at once).
import { findApp, rotateWebhookSecret, updateAppSettings, type AppSettingsPatch } from '../../db/apps.js';
import { NotFoundError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { appView } from './apps.js';
import { APP_FIELDS } from './field-schemas.js';
import { visibleTo } from './principal.js';

export const updateAppBody = { type: 'object', additionalProperties: false, minProperties: 1, properties: APP_FIELDS } as const;


export async function updateAppHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  await updateAppSettings(ctx.deps.db, appId, inputOf<AppSettingsPatch>(ctx));
  forgetAppCaches(ctx, appId);
  ctx.body = appView(ctx, visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App'));
}

export async function regenerateWebhookSecretHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  const secret = await rotateWebhookSecret(ctx.deps.db, appId);
  if (!secret) throw new NotFoundError('App not found');
  forgetAppCaches(ctx, appId);
  ctx.body = {
    app_id: appId,
    webhook_secret: secret,
    webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${appId}`,
    note: 'Shown once: store it now. The previous secret no longer works; set "Authorization: Bearer <webhook_secret>" ' +
      'in the subscription provider\'s webhook settings and send its test event to mark the webhook connected again.',
  };
}
