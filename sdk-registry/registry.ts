// The five client SDKs (spec "Versioning", client-side rules 11 and 14) as data: the one place scaffolds, the
// recommenders and the `svc://sdk/{platform}` resource read versions, packages, casing and storage keys from.
//
// Every row names something that resolves (test/unit/sdk-registry-truth.test.ts checks each against what the project
// ships or serves) or says it is not available and what to do instead:
// * React Native and web: the one TypeScript package, npm `@svc/sdk` 1.6.1 (packages/sdk), imported from its entries
//   `@svc/sdk/react-native` (React Native core 1.6.1: no native module, the host passes AsyncStorage and
//   Platform.OS, so no pod install) and `@svc/sdk/web` (web 1.0.1; also inside Capacitor, Cordova, a TWA or a PWA).
// * Android: Maven `com.svc:attribution` 1.1.1 (packages/sdk-android), served by this service's own Maven repository
//   at `{base_url}/sdk/maven/` (runtime/android-sdk/layout.ts owns the coordinates).
// * iOS and Flutter: no package exists (no Swift or Dart toolchain builds one here): `available: false`, and the
//   app calls the client HTTP API directly, in the order of DIRECT_API_STEPS (docs/native-client-http.md).
// Where the spec is silent: the storage medium per platform (AsyncStorage, UserDefaults, SharedPreferences,
// shared_preferences, localStorage), and Android's sent-purchase set, whose key rule 11 does not name: the Android
// SDK uses React Native's `@svc/reported_purchases`, so an app moving between the two keeps it.
export const CONTRACT_VERSION = '1.6.0';

export const SDK_IDS = ['react-native', 'ios', 'android', 'flutter', 'web'] as const;
export type SdkId = (typeof SDK_IDS)[number];

export type StorePlatform = 'ios' | 'android';
export type ClientPlatform = StorePlatform | 'web';
export type SdkLanguage = 'typescript' | 'swift' | 'kotlin' | 'dart';
export type ResultCasing = 'snake_case' | 'camelCase';

export interface SdkPackage {
  manager: 'npm' | 'gradle';
  name: string;
  /** The version to install (the TypeScript package is 1.6.1 for both of its entries). */
  version: string;
  /** What app code imports: the package entry (npm) or the SDK's main class (Kotlin). */
  import_from: string;
  install_command: string;
  /** The file the dependency goes into. */
  manifest_file: string;
  /** Where the package manager finds it beyond its defaults (`{base_url}` is this server); null for npm. */
  repository: string | null;
}

/** What an app does where no SDK package exists. */
export interface SdkUnavailable {
  reason: string;
  instead: string;
  docs: string;
  steps: string[];
}

export interface SdkEntry {
  id: SdkId;
  name: string;
  version: string;
  language: SdkLanguage;
  /** False: no package to install; `unavailable` says what to do instead. */
  available: boolean;
  package: SdkPackage | null;
  unavailable: SdkUnavailable | null;
  /** Values this SDK sends as `platform` to POST /sdk/init. */
  init_platforms: ClientPlatform[];
  /** Rule 14: validation and purchase results keep the server's snake_case or become camelCase. */
  result_casing: ResultCasing;
  storage: { medium: string; keys: string[]; cleared_by_clear_attribution: string[]; purchase_set_key: string | null };
  hosts: string;
}

// One table per statement of the spec, so each reads against its sentence.

/** Spec "Versioning". */
const VERSIONS: Record<SdkId, string> = { 'react-native': '1.6.1', ios: '1.1.1', android: '1.1.1', flutter: '1.1.1', web: '1.0.1' };

/** Rule 14: React Native and web keep snake_case in validation and purchase results; the others use camelCase. */
const SNAKE_CASE_SDKS: readonly SdkId[] = ['react-native', 'web'];

const NAMES: Record<SdkId, string> = {
  'react-native': 'React Native SDK',
  ios: 'iOS SDK',
  android: 'Android SDK',
  flutter: 'Flutter SDK',
  web: 'Web SDK',
};
const LANGUAGES: Record<SdkId, SdkLanguage> = {
  'react-native': 'typescript',
  ios: 'swift',
  android: 'kotlin',
  flutter: 'dart',
  web: 'typescript',
};
const INIT_PLATFORMS: Record<SdkId, ClientPlatform[]> = {
  'react-native': ['ios', 'android'],
  ios: ['ios'],
  android: ['android'],
  flutter: ['ios', 'android'],
  web: ['web'],
};

const TS_PACKAGE = { manager: 'npm', name: '@svc/sdk', version: '1.6.1', manifest_file: 'package.json', repository: null } as const;
export const MAVEN_REPOSITORY = '{base_url}/sdk/maven/';

const PACKAGES: Record<SdkId, SdkPackage | null> = {
  'react-native': {
    ...TS_PACKAGE,
    import_from: '@svc/sdk/react-native',
    install_command: 'npm install @svc/sdk@1.6.1 @react-native-async-storage/async-storage',
  },
  ios: null,
  android: {
    manager: 'gradle',
    name: 'com.svc:attribution',
    version: '1.1.1',
    import_from: 'com.svc.attribution.Svc',
    manifest_file: 'app/build.gradle.kts',
    repository: MAVEN_REPOSITORY,
    install_command:
      'in settings.gradle.kts add maven { url = uri("{base_url}/sdk/maven/") } to dependencyResolutionManagement.repositories, ' +
      'then implementation("com.svc:attribution:1.1.1") in app/build.gradle.kts and sync Gradle',
  },
  flutter: null,
  web: { ...TS_PACKAGE, import_from: '@svc/sdk/web', install_command: 'npm install @svc/sdk@1.6.1' },
};

/** The client calls a native app makes itself, in order (docs/native-client-http.md spells out each). */
export const DIRECT_API_STEPS = [
  'At every launch: POST {base_url}/api/sdk/init {app_version, sdk_version, ' +
    'platform: ios|android} with Authorization: Bearer <SDK key>; store @svc/initialized.',
  'Once per install: POST /api/sdk/track-install {platform, device_id (a UUID you keep), referral_code and click_id ' +
    'from the Android install referrer when present}; keep the answer in @svc/attribution and the code in @svc/svc_code.',
  'After sign-in: POST /api/sdk/identify {app_user_id, device_id, platform}; keep the user in @svc/app_user_id.',
  'A typed code: POST /api/sdk/validate-code {code}, then POST ' +
    '/api/sdk/set-referral-code {code, app_user_id}; keep the code only after success true.',
  'Funnel events: POST /api/sdk/event {eventType, appUserId, properties, eventId (a UUID you keep until answered)}.',
  'Premium gate: the store entitlement OR GET /api/sdk/access?app_user_id=... has_access (cache a positive answer 5 minutes).',
  'Store-direct purchases: POST /api/sdk/purchase {platform, signedTransaction (iOS JWS) or ' +
    'purchaseToken (Android), referralCode on the first, appUserId}; 503 means send the same body again later.',
  'Sign-out: drop @svc/attribution, @svc/svc_code and @svc/app_user_id.',
];

const UNAVAILABLE: Record<SdkId, SdkUnavailable | null> = {
  'react-native': null,
  android: null,
  web: null,
  ios: {
    reason: 'No Swift package exists: the iOS SDK 1.1.1 the wire contract names is not published.',
    instead:
      'Call the client HTTP API ({base_url}/api/sdk/*) directly from Swift (URLSession) ' +
      'with the SDK key, following the client-side rules; store offer codes need no ' +
      'client code (App Store Server Notifications to POST {base_url}/api/webhooks/apple/{app_id}).',
    docs: 'docs/native-client-http.md',
    steps: DIRECT_API_STEPS,
  },
  flutter: {
    reason: 'No pub package exists: the Flutter SDK 1.1.1 the wire contract names is not published.',
    instead:
      'Call the client HTTP API ({base_url}/api/sdk/*) directly from Dart (package:http) with the SDK key, following the ' +
      'client-side rules; on Android the Kotlin SDK (com.svc:attribution) can also run inside the Flutter app through a platform ' +
      'channel.',
    docs: 'docs/native-client-http.md',
    steps: DIRECT_API_STEPS,
  },
};

const HOSTS: Record<SdkId, string> = {
  'react-native': 'React Native (bare or Expo with a development build)',
  ios: 'native iOS in Swift (SwiftUI or UIKit)',
  android: 'native Android in Kotlin or Java (Compose or Views)',
  flutter: 'Flutter (Dart) on iOS and Android',
  web: 'web apps (any framework), also inside Capacitor, Cordova, a TWA or a PWA',
};

/** Rule 11: the keys every platform keeps, then the per-platform ones. */
const SHARED_KEYS = ['@svc/attribution', '@svc/svc_code', '@svc/app_user_id', '@svc/initialized', '@svc/install_id', '@svc/access'];
const LAUNCH_CODE_KEY = '@svc/launch_code';
const PURCHASE_SET_KEYS: Record<SdkId, string | null> = {
  'react-native': '@svc/reported_purchases',
  ios: '@svc/sent_purchases',
  android: '@svc/reported_purchases',
  flutter: '@svc/reported_purchases',
  web: '@svc/reported_purchases',
};
/** Rule 11: what clearAttribution removes; web keeps the user id and drops the launch code instead. */
const CLEARED = ['@svc/attribution', '@svc/svc_code', '@svc/app_user_id'];
const CLEARED_WEB = ['@svc/attribution', '@svc/svc_code', LAUNCH_CODE_KEY];
const MEDIUMS: Record<SdkId, string> = {
  'react-native': 'AsyncStorage',
  ios: 'UserDefaults',
  android: 'SharedPreferences',
  flutter: 'shared_preferences',
  web: 'localStorage',
};

function storageOf(id: SdkId): SdkEntry['storage'] {
  const purchaseSetKey = PURCHASE_SET_KEYS[id];
  const keys = [...SHARED_KEYS, ...(id === 'web' ? [LAUNCH_CODE_KEY] : []), ...(purchaseSetKey ? [purchaseSetKey] : [])];
  return {
    medium: MEDIUMS[id],
    keys,
    cleared_by_clear_attribution: id === 'web' ? CLEARED_WEB : CLEARED,
    purchase_set_key: purchaseSetKey,
  };
}

export function isSdkId(value: string): value is SdkId {
  return (SDK_IDS as readonly string[]).includes(value);
}

/** A copy, so a caller changing an answer cannot change the registry. */
export function getSdk(id: SdkId): SdkEntry {
  return structuredClone({
    id,
    name: NAMES[id],
    version: VERSIONS[id],
    language: LANGUAGES[id],
    available: PACKAGES[id] !== null,
    package: PACKAGES[id],
    unavailable: UNAVAILABLE[id],
    init_platforms: INIT_PLATFORMS[id],
    result_casing: SNAKE_CASE_SDKS.includes(id) ? 'snake_case' : 'camelCase',
    storage: storageOf(id),
    hosts: HOSTS[id],
  });
}

export function listSdks(): SdkEntry[] {
  return SDK_IDS.map(getSdk);
}

/** A result field as this SDK spells it (the server's snake_case name in, rule 14 casing out). */
export function resultField(sdk: SdkEntry, snakeName: string): string {
  if (sdk.result_casing === 'snake_case') return snakeName;
  return snakeName.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The client base URL the scaffolds point at (rule 14: `{base_url}/api`). */
export function clientBaseUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api`;
}

/**
 * Spec "Versioning": behaviour changes an agent should know when an app pins an older SDK. Both landed in the
 * current versions, so the registry states them once for all five.
 */
export const VERSION_NOTES = [
  'A code is stored only after the server accepts it (earlier versions stored it before the answer).',
  'setReferralCode defaults appUserId to the identified user for free-access codes (React Native 1.6.1, iOS/Android/Flutter 1.1.1).',
];
