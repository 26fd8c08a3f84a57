// Free-text stack descriptions ("Expo app", "SwiftUI", "flutter/dart", "Next.js in Capacitor") to SDK ids. The spec
// only says aliases are accepted; the mapping is ours:
// * Longest alias first, and a matched span is consumed, so "react native" never also counts as "react" (web).
// * Languages shared by several stacks (TypeScript, JavaScript, plain "react") are weak: they choose web only when
//   nothing stronger matched, so "React Native in TypeScript" is React Native.
// * Cross-platform native stacks (Kotlin Multiplatform) name both native SDKs; the caller decides what two means.
// * Web hybrids carry the init `runtime` (capacitor, cordova, twa, pwa), plain web frameworks `browser`.
// * Words common in prose ("next", "compose", "solid") are not aliases on their own; their qualified forms are.
import type { SdkId } from './registry.js';

export type WebRuntime = 'capacitor' | 'cordova' | 'twa' | 'pwa' | 'browser';

interface Alias {
  words: string[];
  sdks: SdkId[];
  runtime?: WebRuntime;
  weak?: boolean;
  note?: string;
}

const EXPO_NOTE = 'Expo: the SDK has native code, so use a development build (expo-dev-client); Expo Go cannot load it.';
const KMP_NOTE = 'Kotlin Multiplatform: use the native iOS and Android SDKs from each platform target.';

const ALIASES: Alias[] = [
  { words: ['react native', 'reactnative', 'rn', 'react native cli', 'bare react native'], sdks: ['react-native'] },
  { words: ['expo', 'expo router', 'eas'], sdks: ['react-native'], note: EXPO_NOTE },
  {
    words: ['ios', 'swift', 'swiftui', 'uikit', 'objective c', 'objc', 'xcode', 'iphone', 'ipad', 'storekit', 'cocoapods', 'spm'],
    sdks: ['ios'],
  },
  { words: ['android', 'kotlin', 'java', 'jetpack compose', 'gradle', 'google play', 'play billing'], sdks: ['android'] },
  { words: ['flutter', 'dart', 'pub'], sdks: ['flutter'] },
  { words: ['kotlin multiplatform', 'kmp', 'kmm'], sdks: ['ios', 'android'], note: KMP_NOTE },
  { words: ['capacitor', 'ionic'], sdks: ['web'], runtime: 'capacitor' },
  { words: ['cordova', 'phonegap'], sdks: ['web'], runtime: 'cordova' },
  { words: ['twa', 'trusted web activity', 'bubblewrap'], sdks: ['web'], runtime: 'twa' },
  { words: ['pwa', 'progressive web app'], sdks: ['web'], runtime: 'pwa' },
  {
    words: [
      'web',
      'browser',
      'next.js',
      'nextjs',
      'nuxt',
      'vue',
      'vue.js',
      'svelte',
      'sveltekit',
      'angular',
      'remix',
      'astro',
      'gatsby',
      'vite',
      'solidjs',
      'solid.js',
      'html',
      'website',
      'web app',
      'spa',
    ],
    sdks: ['web'],
    runtime: 'browser',
  },
  { words: ['typescript', 'javascript', 'ts', 'js', 'react', 'react.js', 'reactjs'], sdks: ['web'], runtime: 'browser', weak: true },
];

export interface AliasMatch {
  sdk: SdkId;
  alias: string;
  runtime?: WebRuntime;
  note?: string;
}

const byLength = ALIASES.flatMap((a) => a.words.map((word) => ({ word, alias: a }))).sort((x, y) => y.word.length - x.word.length);

/** Lowercase, separators to spaces, sentence dots dropped but dots inside words ("next.js") kept. */
function normalizeStack(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[-_/,;:()+&|]+/g, ' ')
    .replace(/\.(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

/** Every SDK the text names, strongest first, one match per SDK (the first alias that named it). */
export function matchStack(text: string): AliasMatch[] {
  let rest = normalizeStack(text);
  const strong: AliasMatch[] = [];
  const weak: AliasMatch[] = [];
  for (const { word, alias } of byLength) {
    const needle = ` ${word} `;
    if (!rest.includes(needle)) continue;
    rest = rest.split(needle).join('  ');
    for (const sdk of alias.sdks) (alias.weak ? weak : strong).push({ sdk, alias: word, runtime: alias.runtime, note: alias.note });
  }
  const matches = strong.length > 0 ? strong : weak;
  return matches.filter((m, i) => matches.findIndex((o) => o.sdk === m.sdk) === i);
}
