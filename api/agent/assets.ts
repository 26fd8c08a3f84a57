// GET /api/agent/apps/{app_id}/assets (?type=, ?category=) and POST /api/agent/assets/{asset_id}/featured.
// Uploads are not an agent call: a human uses the signed asset-upload link (api/agent/signed-links.ts).
import { findApp } from '../../db/apps.js';
import { findAsset, listAssets } from '../../db/assets.js';
import { featureAsset } from '../../actions/assets.js';
import { NotFoundError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { visibleTo } from './principal.js';

export const listAssetsQuery = {
  type: 'object',
  properties: {
    type: { type: 'string', minLength: 1, maxLength: 64 },
    category: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

export const setAssetFeaturedBody = {
  type: 'object',
  additionalProperties: false,
  required: ['featured'],
  properties: { featured: { type: 'boolean' } },
} as const;

export async function listAssetsHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  const q = inputOf<{ type?: string; category?: string }>(ctx);
  const rows = await listAssets(ctx.deps.db, appId, q);
  ctx.body = { app_id: appId, assets: rows, count: rows.length };
}

export async function setAssetFeaturedHandler(ctx: AppContext): Promise<void> {
  const id = ctx.params.asset_id as string;
  visibleTo(ctx, await findAsset(ctx.deps.db, id), 'Asset');
  const row = await featureAsset(ctx.deps, { assetId: id, featured: inputOf<{ featured: boolean }>(ctx).featured });
  if (!row) throw new NotFoundError('Asset not found');
  ctx.body = row;
}
