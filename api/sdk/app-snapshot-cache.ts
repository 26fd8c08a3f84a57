// init runs on every app launch: answer it from the app's cached snapshot while the change feed keeps that
// snapshot current, and write the SDK-initialized marker only when the SDK identity is new or a minute old.
import type { Knex } from 'knex';
import { type InitAnswer, type SdkInit } from '../../db/apps.js';
import { recordAppInit } from '../../actions/apps.js';
import type { ApiCaches } from '../sdk-caches.js';

export async function initSnapshot(db: Knex, caches: ApiCaches, appId: string, init: SdkInit): Promise<InitAnswer | undefined> {
  const mark = [appId, init.platform, init.sdkName, init.sdkVersion, init.appVersion, init.runtime].join('\n');
  const cached = caches.initSnapshots.get(appId, 'init');
  if (cached && caches.initMarks.get(mark)) return cached;
  const token = caches.initSnapshots.begin(appId);
  const fresh = await recordAppInit({ db }, { appId, init });
  if (fresh) {
    caches.initSnapshots.set(appId, 'init', fresh, token);
    caches.initMarks.set(mark, true);
  }
  return fresh;
}
