// What both entries export besides their client: types, storage adapters, ids, errors and link parsing.
export type * from './types.js';
export { SvcError, type FetchLike } from './http.js';
export { accountToken, derivedEventId, uuidV4, type RandomBytes } from './ids.js';
export { cleanLaunchUrl, parseInstallReferrer, parseLaunchUrl, type LaunchParams } from './launch.js';
export {
  asyncStorageAdapter,
  KEYS,
  KEY_PREFIX,
  localStorageAdapter,
  memoryStorage,
  type AsyncStorageLike,
  type StorageAdapter,
  type WebStorageLike,
} from './storage.js';
export type { DeviceHints } from './client.js';
