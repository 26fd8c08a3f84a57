// Marketing assets of an app (metadata rows; the files live behind the storage interface).
import type { Knex } from 'knex';

export const ASSET_COLUMNS = [
  'id',
  'app_id',
  'org_id',
  'type',
  'category',
  'title',
  'description',
  'url',
  'storage_key',
  'mime_type',
  'size_bytes',
  'featured',
  'uploaded_by',
  'created_at',
  'updated_at',
] as const;

export type AssetView = Record<(typeof ASSET_COLUMNS)[number], unknown> & { id: string; org_id: string; app_id: string };

export async function listAssets(db: Knex, appId: string, f: { type?: string; category?: string } = {}): Promise<AssetView[]> {
  const q = db('assets')
    .where('app_id', appId)
    .orderBy([{ column: 'featured', order: 'desc' }, { column: 'created_at', order: 'desc' }, { column: 'id' }]);
  if (f.type) void q.where('type', f.type);
  if (f.category) void q.where('category', f.category);
  return q.select<AssetView[]>(ASSET_COLUMNS);
}

export async function findAsset(db: Knex, id: string): Promise<AssetView | undefined> {
  return db('assets').where('id', id).first<AssetView | undefined>(ASSET_COLUMNS);
}

export interface NewAsset {
  appId: string;
  orgId: string;
  type: string;
  category: string | null;
  title: string | null;
  description: string | null;
  storageKey: string;
  mimeType: string;
  sizeBytes: number;
  uploadedBy: string;
}
