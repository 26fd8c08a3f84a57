// A stored asset's file as an answer, for the two rooms that serve one: the dashboard (api/dashboard/assets/) and the
// creator portal (api/creator-portal/routes.tsx).
import { assetStorage } from '../clients/asset-storage.js';
import { NotFoundError } from '../errors/http-errors.js';
import type { AppContext } from './context.js';

/** Answers with a stored asset's file (the dashboard's asset page and the creator portal's download). */
export async function sendAssetFile(
  ctx: AppContext,
  asset: { id: string; storage_key: unknown; mime_type: unknown; url: unknown },
): Promise<void> {
  const key = asset.storage_key as string | null;
  const data = key ? await assetStorage(ctx.deps.config).get(key) : undefined;
  if (!key || !data)
    throw new NotFoundError(asset.url ? `This asset is a link, not a stored file: ${asset.url as string}` : 'Asset file not found');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'private, max-age=300');
  ctx.set('Content-Disposition', `inline; filename="${asset.id}.${key.split('.').pop()}"`);
  ctx.type = String(asset.mime_type);
  ctx.body = data;
}
