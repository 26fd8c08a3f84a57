// In-process caches of the hottest read (init runs on every app launch): the app's init snapshot for a few seconds,
// and which SDK identities were recorded recently, so a steady stream of launches costs no database round trip.
// Changes to campaigns show in init within SNAPSHOT_TTL_MS (at once in the process that made them: forgetApp).
import type { Knex } from 'knex';
import { recordSdkInit, type InitAnswer, type SdkInit } from '../../activities/db/apps.js';
import { TtlCache } from '../../lib/ttl-cache.js';

export const SNAPSHOT_TTL_MS = 5_000;
const MARK_TTL_MS = 60_000;

const snapshots = new TtlCache<string, InitAnswer>(SNAPSHOT_TTL_MS, 50_000);
const marked = new TtlCache<string, true>(MARK_TTL_MS, 200_000);

/** The init answer for the app, recording the SDK identity when it is new or a minute old. */
export async function initSnapshot(db: Knex, appId: string, init: SdkInit): Promise<InitAnswer | undefined> {
  const mark = [appId, init.platform, init.sdkName, init.sdkVersion, init.appVersion, init.runtime].join('\n');
  const cached = snapshots.get(appId);
  if (cached && marked.get(mark)) return cached;
  const fresh = await recordSdkInit(db, appId, init);
  if (fresh) {
    snapshots.set(appId, fresh);
    marked.set(mark, true);
  }
  return fresh;
}

export function forgetApp(appId: string): void {
  snapshots.delete(appId);
}
