// The five client SDKs (spec "Versioning", client-side rules 11 and 14) as data: the one place scaffolds, the
// recommenders and the `svc://sdk/{platform}` resource read versions, packages, casing and storage keys from.
//
// Package names and install commands are ours to choose (the spec replaces the brand with `svc` and names no
// packages); they follow each ecosystem's habit so an agent can paste them:
// * React Native: npm `@svc/react-native` (needs `@react-native-async-storage/async-storage` for its keys; Expo apps
//   need a development build because the SDK has native code, Expo Go cannot load it).
// * iOS: Swift Package `https://github.com/svc/svc-ios`, product `SvcAttribution`.
// * Android: Gradle `com.svc:attribution` from Maven Central.
// * Flutter: pub `svc_attribution`.
// * web: npm `@svc/web` (also usable from Capacitor, Cordova, a TWA or a PWA: init reports the runtime).
// Where the spec is silent: the storage medium per platform (AsyncStorage, UserDefaults, SharedPreferences,
// shared_preferences, localStorage), and Android's sent-purchase set, whose key rule 11 does not name, so Android
// lists no purchase-set key here.

export const CONTRACT_VERSION = '1.6.0';

export const SDK_IDS = ['react-native', 'ios', 'android', 'flutter', 'web'] as const;
export type SdkId = (typeof SDK_IDS)[number];

export type StorePlatform = 'ios' | 'android';
export type ClientPlatform = StorePlatform | 'web';
export type SdkLanguage = 'typescript' | 'swift' | 'kotlin' | 'dart';
export type ResultCasing = 'snake_case' | 'camelCase';

export interface SdkPackage {
  manager: 'npm' | 'swift-package-manager' | 'gradle' | 'pub';
  name: string;
  install_command: string;
  /** The file the dependency goes into. */
  manifest_file: string;
}

export interface SdkEntry {
  id: SdkId;
  name: string;
  version: string;
  language: SdkLanguage;
  package: SdkPackage;
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

const PACKAGES: Record<SdkId, SdkPackage> = {
  'react-native': {
    manager: 'npm',
    name: '@svc/react-native',
    manifest_file: 'package.json',
    install_command: 'npm install @svc/react-native@1.6.1 @react-native-async-storage/async-storage && npx pod-install',
  },
  ios: {
    manager: 'swift-package-manager',
    name: 'SvcAttribution',
    manifest_file: 'Package.swift',
    install_command: 'Xcode > File > Add Package Dependencies > https://github.com/svc/svc-ios (Up to Next Major from 1.1.1)',
  },
  android: {
    manager: 'gradle',
    name: 'com.svc:attribution',
    manifest_file: 'app/build.gradle.kts',
    install_command: 'add implementation("com.svc:attribution:1.1.1") to app/build.gradle.kts, then sync Gradle',
  },
  flutter: {
    manager: 'pub',
    name: 'svc_attribution',
    manifest_file: 'pubspec.yaml',
    install_command: 'flutter pub add svc_attribution:^1.1.1',
  },
  web: { manager: 'npm', name: '@svc/web', manifest_file: 'package.json', install_command: 'npm install @svc/web@1.0.1' },
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
  android: null,
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
    package: PACKAGES[id],
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
