// Where marketing asset files live. The dashboard upload (api/dashboard/assets/asset-upload.ts) writes the file, then the
// row; a failed row insert removes the file again, so a file and its row exist both or neither. Keys are made by the
// server (`{app_id}/{random}.{ext}`), never from the client's file name, and are checked again here so no key can
// leave the storage root. `ASSET_STORAGE` picks the backend; `local` (a directory, default SVC_DATA_DIR/assets) is
// the one there is. Another backend (object storage) implements AssetStorage and adds an entry to BACKENDS.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../runtime/config.js';

export interface AssetStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** undefined when the key holds nothing. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}

const KEY_RE = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.[a-z0-9]{1,5}$/;

/** A fresh server-made key for an app's file with this extension. */
export function newAssetKey(appId: string, ext: string): string {
  return `${appId.replace(/[^A-Za-z0-9_-]/g, '_')}/${randomBytes(16).toString('hex')}.${ext}`;
}

export class LocalDiskStorage implements AssetStorage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    if (!KEY_RE.test(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written under a temporary name and renamed: a crash mid-write leaves no file under the key.
    const tmp = `${file}.${randomBytes(4).toString('hex')}.part`;
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

const BACKENDS: Record<string, (config: Config) => AssetStorage> = {
  local: (config) => new LocalDiskStorage(path.resolve(config.ASSET_STORAGE_DIR ?? path.join(config.SVC_DATA_DIR, 'assets'))),
};

const opened = new Map<string, AssetStorage>();

export function assetStorage(config: Config): AssetStorage {
  const id = `${config.ASSET_STORAGE}:${config.ASSET_STORAGE_DIR ?? config.SVC_DATA_DIR}`;
  let storage = opened.get(id);
  if (!storage) {
    const open = BACKENDS[config.ASSET_STORAGE];
    if (!open) throw new Error(`Unknown ASSET_STORAGE ${config.ASSET_STORAGE}`);
    opened.set(id, (storage = open(config)));
  }
  return storage;
}
