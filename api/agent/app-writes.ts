// PATCH /api/agent/apps/{app_id} (descriptive settings; never a credential, never the slug) and
// POST /api/agent/apps/{app_id}/regenerate-webhook-secret (the new secret is returned once; the old one dies at once).
import { findApp } from '../../db/agent-resources.js';
import { rotateWebhookSecret, updateAppSettings, type AppSettingsPatch } from '../../db/app-settings.js';
import { NotFoundError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { appView } from './apps.js';
import { APP_FIELDS } from './field-schemas.js';
import { visibleTo } from './principal.js';

export const updateAppBody = { type: 'object', additionalProperties: false, minProperties: 1, properties: APP_FIELDS } as const;

/**
 * This process answers from the new state at once; other API processes hear of the change through the database's
 * app-change feed (migrations 0010 and 0014).
 */
export function forgetAppCaches(ctx: AppContext, appId: string): void {
  ctx.caches.initSnapshots.dropApp(appId);
  ctx.caches.codes.dropApp(appId);
  ctx.caches.webhookSecrets.dropApp(appId);
}

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
