// The SDK core shared by the web and React Native entries: every client-side rule of the wire contract (spec
// "Client-side rules pinned by the wire contract", rules 1-14). Everything platform-bound is injected (storage,
// fetch, clock, random bytes, launch-link capture, device hints), so this module touches no global at import time.
// It owns the session and initialize; attribution.ts (install, codes, identify), reports.ts (events and purchases
// through the outbox) hold the rest of the client's calls.
import { createAttribution } from './attribution.js';
import { createTransport, SvcError, type FetchLike } from './http.js';
import type { RandomBytes } from './ids.js';
import { parseInstallReferrer, type LaunchParams } from './launch.js';
import { Outbox } from './outbox.js';
import { createReports } from './reports.js';
import type { Session } from './session.js';
import { singleFlight } from './single-flight.js';
import { KEYS, readJson, writeJson, type StorageAdapter } from './storage.js';
import type { AccessResult, ActiveCampaign, BaseClient, BaseConfig, ClientPlatform, InitResult } from './types.js';

/** Optional device hints for track-install's IP + device matching. */
export interface DeviceHints {
  device_brand?: string;
  device_model?: string;
  os_version?: string;
  screen_resolution?: string;
  timezone?: string;
  language?: string;
}

export interface CoreDeps<Config extends BaseConfig> {
  platform: (config: Config) => ClientPlatform;
  sdkName: string;
  sdkVersion: string;
  storage: (config: Config) => StorageAdapter;
  fetch: () => FetchLike;
  now: () => number;
  randomBytes: RandomBytes;
  /** Rule 11: what clearAttribution removes on this platform. */
  clearedKeys: readonly string[];
  /** Web keeps the captured launch code under @svc/launch_code (rule 11: web only). */
  persistLaunchCode: boolean;
  /** Extra init fields (web: `runtime`). */
  initFields?: (config: Config) => Record<string, unknown>;
  /** A code the app was launched with (web: the URL), read during initialize (rule 13). */
  captureLaunch?: (config: Config) => LaunchParams | null;
  /** track-install's device fields; React Native adds the Play Install Referrer's times (`install_referrer`). */
  deviceHints?: () => DeviceHints & { install_referrer?: Record<string, number> };
}

export const DEFAULT_BASE_URL = 'https://svc.example.com/api';
const ACCESS_TTL_MS = 5 * 60_000;
const NO_ACCESS: AccessResult = { hasAccess: false, source: null, entitlement: null, expiresAt: null, code: null };

interface CachedAccess {
  app_user_id: string;
  cached_at: number;
  result: AccessResult;
}

export interface SvcCore<Config extends BaseConfig> extends BaseClient<Config> {
  /** Sends what a killed or offline process left in @svc/outbox (initialize does this too). */
  flush(): Promise<{ events: number; purchases: number }>;
  /** The identified user (@svc/app_user_id), if any. */
  getAppUserId(): Promise<string | null>;
}

export function createClient<Config extends BaseConfig>(deps: CoreDeps<Config>): SvcCore<Config> {
  const flight = singleFlight();
  let session: Session<Config> | null = null;
  const current = () => session;
  const ready = () => {
    if (!session) throw new SvcError('svc: call initialize first', null);
    return { ...session, platform: deps.platform(session.config) };
  };
  let initialized: Promise<InitResult> | null = null;
  const [attribution, adoptLaunch] = createAttribution(deps, ready, current, flight);
  const [reports, started] = createReports(deps, ready, current, flight);

  return {
    ...attribution,
    ...reports,
    initialize(next: Config): Promise<InitResult> {
      if (!next || typeof next.apiKey !== 'string' || next.apiKey.trim() === '') {
        return Promise.reject(new TypeError('svc: apiKey required'));
      }
      // A second mount with the same key shares the first call; a failed call may be retried.
      if (initialized && session?.config.apiKey === next.apiKey && session.config.baseUrl === next.baseUrl) return initialized;
      return (initialized = flight('init', async () => {
        const storage = deps.storage(next);
        const transport = createTransport({
          baseUrl: next.baseUrl ?? DEFAULT_BASE_URL,
          apiKey: next.apiKey,
          fetch: deps.fetch(),
          timeoutMs: next.timeoutMs ?? 15_000,
        });
        session = { config: next, storage, outbox: new Outbox(storage), transport };
        await adoptLaunch(storage, deps.captureLaunch?.(next) ?? parseInstallReferrer(next.installReferrer));
        const res = await transport.call<InitResult>('POST', '/sdk/init', {
          app_version: next.appVersion ?? 'unknown',
          sdk_version: deps.sdkVersion,
          platform: deps.platform(next),
          sdk_name: deps.sdkName,
          ...deps.initFields?.(next),
        });
        await storage.setItem(KEYS.initialized, 'true');
        started(next, res.store_direct === true);
        await reports.flush().catch(() => undefined);
        return res;
      }).catch((err: unknown) => {
        initialized = null;
        throw err;
      }));
    },

    async getReferralCode() {
      return session?.storage.getItem(KEYS.code) ?? null;
    },

    async getAppUserId() {
      return session?.storage.getItem(KEYS.appUserId) ?? null;
    },

    async checkAccess(appUserId) {
      if (!session) return NO_ACCESS;
      const { storage: s, transport } = session;
      const user = appUserId ?? (await s.getItem(KEYS.appUserId));
      if (!user) return NO_ACCESS; // rule 9: no request without a user id
      const cached = await readJson<CachedAccess>(s, KEYS.access);
      if (cached?.app_user_id === user && cached.result.hasAccess && deps.now() - cached.cached_at < ACCESS_TTL_MS) return cached.result;
      try {
        const res = await transport.call<{
          has_access: boolean;
          source: 'comp' | null;
          entitlement: string | null;
          expires_at: string | null;
          code: string | null;
        }>('GET', `/sdk/access?app_user_id=${encodeURIComponent(user)}`);
        const result: AccessResult = res.has_access
          ? {
              hasAccess: true,
              source: res.source ?? null,
              entitlement: res.entitlement ?? null,
              expiresAt: res.expires_at ?? null,
              code: res.code ?? null,
            }
          : NO_ACCESS;
        // Rule 9: a positive answer is kept 5 minutes, a negative one never (a code redeemed now must count now).
        if (result.hasAccess) await writeJson(s, KEYS.access, { app_user_id: user, cached_at: deps.now(), result } satisfies CachedAccess);
        else await s.removeItem(KEYS.access);
        return result;
      } catch {
        return NO_ACCESS;
      }
    },

    async getActiveCampaigns(): Promise<ActiveCampaign[]> {
      try {
        const res = await ready().transport.call<ActiveCampaign[]>('GET', '/sdk/campaigns');
        return Array.isArray(res) ? res : [];
      } catch {
        return [];
      }
    },
  };
}

export { SvcError };
