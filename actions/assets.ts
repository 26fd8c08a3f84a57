// Campaign assets (api/dashboard/assets/asset-upload.ts reads and checks the upload; asset-link.tsx takes it through a
// signed link; api/agent/assets.ts features one). Saving stores the files under server-made keys, then inserts their
// rows in one transaction, after spending the signed link when one brought them; any failure removes every stored
// file, so files and rows exist all or none.
import type { Knex } from 'knex';
import { assetStorage, newAssetKey } from '../clients/asset-storage.js';
import type { AssetView } from '../db/assets.js';
import { insertAsset, setAssetFeatured } from '../db/assets-writes.js';
import type { Config } from '../runtime/config.js';
import { AppError } from '../errors/http-errors.js';
import type { LinkClaims } from '../lib/signed-links.js';
import { LINK_USED, spendLink } from './signed-links.js';

export interface AssetKind {
  mime: string;
  ext: string;
  type: string;
}

export interface AssetMeta {
  type: string | null;
  category: string | null;
  title: string | null;
  description: string | null;
}

export interface AssetFile {
  data: Buffer;
  kind: AssetKind;
}

export interface AssetUpload {
  files: AssetFile[];
  meta: AssetMeta;
}

export interface SaveAssets {
  app: { id: string; org_id: string };
  upload: AssetUpload;
  uploadedBy: string;
  /** The signed link that brought the files: spent in the rows' transaction (410 when it was used already). */
  link?: LinkClaims;
}

export async function saveAssets(deps: { db: Knex; config: Config }, input: SaveAssets): Promise<(AssetView & { file_url: string })[]> {
  const { app, upload, link } = input;
  const storage = assetStorage(deps.config);
  const keys: string[] = [];
  try {
    for (const file of upload.files) {
      const key = newAssetKey(app.id, file.kind.ext);
      await storage.put(key, file.data);
      keys.push(key);
    }
    const { meta } = upload;
    const rows = await deps.db.transaction(async (trx) => {
      if (link && !(await spendLink(trx, link))) throw new AppError(410, LINK_USED);
      const out: AssetView[] = [];
      for (const [i, file] of upload.files.entries()) {
        out.push(
          await insertAsset(trx, {
            appId: app.id,
            orgId: app.org_id,
            type: meta.type ?? file.kind.type,
            category: meta.category,
            title: meta.title,
            description: meta.description,
            storageKey: keys[i]!,
            mimeType: file.kind.mime,
            sizeBytes: file.data.length,
            uploadedBy: input.uploadedBy,
          }),
        );
      }
      return out;
    });
    return rows.map((row) => ({ ...row, file_url: `/api/assets/${row.id}/file` }));
  } catch (err) {
    await Promise.all(keys.map((key) => storage.remove(key)));
    throw err;
  }
}

export async function featureAsset(deps: { db: Knex }, input: { assetId: string; featured: boolean }): Promise<AssetView | undefined> {
  return setAssetFeatured(deps.db, input.assetId, input.featured);
}
