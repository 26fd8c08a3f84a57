// The React Native core (`@svc/react-native`, contract of React Native 1.6.1): no native module of its own. The
// host passes its AsyncStorage (wrapped by asyncStorageAdapter or as is) and `Platform.OS`; fetch, clock and
// random bytes come from the runtime unless given. The Android install-referrer string goes in `installReferrer`,
// Play's click and install-begin times in `installReferrerTimes`.
import { createClient, type CoreDeps, type DeviceHints, type SvcCore } from './client.js';
import type { FetchLike } from './http.js';
import type { RandomBytes } from './ids.js';
import { globalFetch, globalRandomBytes, timezone } from './platform-defaults.js';
import { asyncStorageAdapter, KEYS, type AsyncStorageLike } from './storage.js';
import { installReferrerBody } from './launch.js';
import type { BaseConfig, InstallReferrerTimes } from './types.js';

export const REACT_NATIVE_SDK_VERSION = '1.6.1';

export interface SvcConfig extends BaseConfig {
  /** AsyncStorage (`@react-native-async-storage/async-storage`) or any store of the same shape. Required. */
  storage?: AsyncStorageLike;
  /** `Platform.OS` of react-native: 'ios' or 'android'. Required. */
  platform?: 'ios' | 'android';
  deviceHints?: DeviceHints;
  /** With `installReferrer` on Android: Google Play's times (`ReferrerDetails`), sent with track-install. */
  installReferrerTimes?: InstallReferrerTimes;
}

export interface NativeEnvironment {
  fetch: FetchLike;
  now: () => number;
  randomBytes: RandomBytes;
}

export type SvcClient = SvcCore<SvcConfig>;

export function createReactNativeClient(overrides: Partial<NativeEnvironment> = {}): SvcClient {
  const env = (): NativeEnvironment => ({
    fetch: (url, init) => globalFetch()(url, init),
    now: () => Date.now(),
    randomBytes: globalRandomBytes,
    ...overrides,
  });
  let hints: DeviceHints | undefined;
  let referrerTimes: InstallReferrerTimes | undefined;
  const deps: CoreDeps<SvcConfig> = {
    platform: (config) => {
      if (config.platform !== 'ios' && config.platform !== 'android')
        throw new TypeError("svc: pass platform: Platform.OS ('ios' or 'android')");
      return config.platform;
    },
    sdkName: 'react-native',
    sdkVersion: REACT_NATIVE_SDK_VERSION,
    storage: (config) => {
      if (!config.storage) throw new TypeError('svc: pass storage (AsyncStorage) to initialize');
      hints = config.deviceHints;
      referrerTimes = config.installReferrerTimes;
      return asyncStorageAdapter(config.storage);
    },
    fetch: () => env().fetch,
    now: () => env().now(),
    randomBytes: (n) => env().randomBytes(n),
    clearedKeys: [KEYS.attribution, KEYS.code, KEYS.appUserId],
    persistLaunchCode: false,
    deviceHints: () => ({ timezone: timezone(), ...hints, install_referrer: installReferrerBody(referrerTimes) }),
  };
  return createClient(deps);
}

const Svc: SvcClient = /* @__PURE__ */ createReactNativeClient();
export default Svc;

export * from './public.js';
