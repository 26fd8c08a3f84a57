// The web SDK (`@svc/web`, contract of web 1.0.1): localStorage (memory when it throws), the launch URL's
// `svc_code` / `svc_click` (rule 13) and `platform: web`. Nothing here touches `window` before initialize.
import { createClient, type CoreDeps, type DeviceHints, type SvcCore } from './client.js';
import type { FetchLike } from './http.js';
import type { RandomBytes } from './ids.js';
import { cleanLaunchUrl, parseInstallReferrer, parseLaunchUrl, type LaunchParams } from './launch.js';
import { globalFetch, globalRandomBytes, timezone } from './platform-defaults.js';
import { KEYS, localStorageAdapter, type StorageAdapter, type WebStorageLike } from './storage.js';
import type { BaseConfig } from './types.js';

export const WEB_SDK_VERSION = '1.0.1';

export interface SvcConfig extends BaseConfig {
  /** Rule 13: read svc_code and svc_click from the launch URL (default true). */
  captureLaunchCode?: boolean;
  /** Remove them from the address bar afterwards (default true); other parameters and the hash stay. */
  cleanUrl?: boolean;
  runtime?: 'capacitor' | 'cordova' | 'twa' | 'pwa' | 'browser';
  /** The Android install-referrer string, in a TWA or Capacitor shell. */
  installReferrer?: string;
}

/** The browser pieces the web client reads; each may be replaced (tests, SSR, WebViews). */
export interface WebEnvironment {
  storage: StorageAdapter;
  fetch: FetchLike;
  now: () => number;
  randomBytes: RandomBytes;
  /** The current URL, or null when there is none (SSR). */
  currentUrl: () => string | null;
  /** Replaces the address bar's URL without navigation (history.replaceState). */
  replaceUrl: (url: string) => void;
  deviceHints: () => DeviceHints;
}

interface BrowserGlobals {
  localStorage?: WebStorageLike;
  location?: { href: string };
  history?: { state: unknown; replaceState(state: unknown, title: string, url: string): void };
  navigator?: { language?: string };
  screen?: { width: number; height: number };
}
const browser = (): BrowserGlobals => globalThis as unknown as BrowserGlobals;

function defaultEnvironment(): WebEnvironment {
  return {
    storage: localStorageAdapter(() => browser().localStorage),
    fetch: (url, init) => globalFetch()(url, init),
    now: () => Date.now(),
    randomBytes: globalRandomBytes,
    currentUrl: () => browser().location?.href ?? null,
    replaceUrl: (url) => {
      const h = browser().history;
      h?.replaceState(h.state, '', url);
    },
    deviceHints: () => {
      const b = browser();
      return {
        timezone: timezone(),
        language: b.navigator?.language,
        screen_resolution: b.screen ? `${b.screen.width}x${b.screen.height}` : undefined,
      };
    },
  };
}

function captureLaunch(env: WebEnvironment, config: SvcConfig): LaunchParams | null {
  if (config.captureLaunchCode !== false) {
    const url = env.currentUrl();
    const found = url ? parseLaunchUrl(url) : null;
    if (found) {
      if (config.cleanUrl !== false) {
        try {
          env.replaceUrl(cleanLaunchUrl(url!));
        } catch {
          // a sandboxed document may refuse replaceState; the code is captured either way
        }
      }
      return found;
    }
  }
  return parseInstallReferrer(config.installReferrer);
}

export type SvcClient = SvcCore<SvcConfig>;

/** A web client; every browser piece can be replaced. */
export function createWebClient(overrides: Partial<WebEnvironment> = {}): SvcClient {
  let env: WebEnvironment | null = null;
  const environment = (): WebEnvironment => (env ??= { ...defaultEnvironment(), ...overrides });
  const deps: CoreDeps<SvcConfig> = {
    platform: () => 'web',
    sdkName: 'web',
    sdkVersion: WEB_SDK_VERSION,
    storage: () => environment().storage,
    fetch: () => environment().fetch,
    now: () => environment().now(),
    randomBytes: (n) => environment().randomBytes(n),
    clearedKeys: [KEYS.attribution, KEYS.code, KEYS.launchCode],
    persistLaunchCode: true,
    initFields: (config) => ({ runtime: config.runtime }),
    captureLaunch: (config) => captureLaunch(environment(), config),
    deviceHints: () => environment().deviceHints(),
  };
  return createClient(deps);
}

const Svc: SvcClient = /* @__PURE__ */ createWebClient();
export default Svc;

export * from './public.js';
