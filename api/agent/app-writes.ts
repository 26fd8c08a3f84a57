// PATCH /api/agent/apps/{app_id} (descriptive settings, the localized maps and the creator-code settings; never a
// credential, never the slug) and
// POST /api/agent/apps/{app_id}/regenerate-webhook-secret (the new secret is returned once; the old one dies at once).
import { findApp, type AppSettingsPatch } from '../../db/apps.js';
import { regenerateWebhookSecret, updateApp } from '../../actions/apps.js';
import { hasCredential } from '../../db/store-credentials.js';
import { ConflictError, NotFoundError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { appView } from './apps.js';
import { APP_FIELDS, APP_PATCH_ONLY_FIELDS } from './field-schemas.js';
import { replaceAppMaps, type AppMaps } from './localize.js';
import { visibleTo } from './principal.js';

export const updateAppBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...APP_FIELDS, ...APP_PATCH_ONLY_FIELDS },
} as const;

/** The mirror needs the provider's secret key; without one stored, the human must upload it first (409 naming how). */
async function assertMirrorPossible(ctx: AppContext, appId: string, patch: AppSettingsPatch): Promise<void> {
  if (patch.creator_code_settings?.mirror_free_access_to_subprovider !== true) return;
  if (await hasCredential(ctx.deps.db, appId, 'subprovider')) return;
  throw new ConflictError(
    "mirror_free_access_to_subprovider needs the subscription provider's secret API key, and none is stored for this app. " +
      `Get a signed upload link for the human with POST /api/agent/apps/${appId}/credential-setup-link and {"platform": "subprovider"} ` +
      '(tool svc_get_credential_upload_link), then PATCH again.',
  );
}

export async function updateAppHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  const { name_i18n, description_i18n, tagline_i18n, ...settings } = inputOf<AppSettingsPatch & AppMaps>(ctx);
  const maps = Object.fromEntries(
    Object.entries({ name_i18n, description_i18n, tagline_i18n }).filter(([, m]) => m !== undefined),
  ) as AppMaps;
  await assertMirrorPossible(ctx, appId, settings);
  await updateApp(ctx.deps, {
    appId,
    settings,
    nextI18n: Object.keys(maps).length > 0 ? (current) => replaceAppMaps(current, maps) : undefined,
  });
  forgetAppCaches(ctx, appId);
  ctx.body = appView(ctx, visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App'));
}

export async function regenerateWebhookSecretHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  const secret = await regenerateWebhookSecret(ctx.deps, { appId });
  if (!secret) throw new NotFoundError('App not found');
  forgetAppCaches(ctx, appId);
  ctx.body = {
    app_id: appId,
    webhook_secret: secret,
    webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${appId}`,
    note:
      'Shown once: store it now. The previous secret no longer works; set "Authorization: Bearer <webhook_secret>" ' +
      "in the subscription provider's webhook settings and send its test event to mark the webhook connected again.",
  };
}
