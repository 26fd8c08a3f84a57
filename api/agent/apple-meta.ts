// PATCH /api/agent/apps/{app_id}/apple-meta: the non-secret Apple settings (issuer id, key id, environment, App Store
// app id). The private key itself only ever arrives through the human's signed credential-upload link.
import { findApp, type AppleMetaPatch } from '../../db/apps.js';
import { setAppleMeta as setAppleMetaAction } from '../../actions/apps.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { visibleTo } from './principal.js';

export const appleMetaBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    issuer_id: { type: 'string', pattern: '^[0-9a-fA-F-]{36}$' },
    key_id: { type: 'string', pattern: '^[A-Z0-9]{10}$' },
    environment: { enum: ['sandbox', 'production'] },
    app_apple_id: { type: 'string', pattern: '^[0-9]{1,20}$' },
    bundle_id: { type: 'string', pattern: '^[A-Za-z0-9.-]{1,155}$' },
  },
} as const;

export async function setAppleMeta(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const appleMeta = await setAppleMetaAction(ctx.deps, { appId: app.id, patch: inputOf<AppleMetaPatch>(ctx) });
  forgetAppCaches(ctx, app.id);
  ctx.body = { app_id: app.id, apple_meta: appleMeta };
}
