// Writes of campaign assets (reads stay in db/assets.ts).
import type { Knex } from 'knex';
import { ASSET_COLUMNS } from './assets.js';
import { AssetView, NewAsset } from './assets.js';

export async function setAssetFeatured(db: Knex, id: string, featured: boolean): Promise<AssetView | undefined> {
  const [row] = await db('assets').where('id', id).update({ featured }).returning<AssetView[]>(ASSET_COLUMNS);
  return row;
}

export async function insertAsset(db: Knex, a: NewAsset): Promise<AssetView> {
  const [row] = await db('assets')
    .insert({
      app_id: a.appId,
      org_id: a.orgId,
      type: a.type,
      category: a.category,
      title: a.title,
      description: a.description,
      storage_key: a.storageKey,
      mime_type: a.mimeType,
      size_bytes: a.sizeBytes,
      uploaded_by: a.uploadedBy,
    })
    .returning<AssetView[]>(ASSET_COLUMNS);
  return row!;
}
