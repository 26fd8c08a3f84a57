// The SDK core shared by the web and React Native entries: every client-side rule of the wire contract (spec
// "Client-side rules pinned by the wire contract", rules 1-14). Everything platform-bound is injected (storage,
// fetch, clock, random bytes, launch-link capture, device hints), so this module touches no global at import time.
import { derivedEventId, uuidV4, type RandomBytes } from './ids.js';
import { createTransport, SvcError, type FetchLike, type Transport } from './http.js';
import { parseInstallReferrer, type LaunchParams } from './launch.js';
import { Outbox } from './outbox.js';
import { purchaseStoreId } from './purchase-id.js';
import { singleFlight } from './single-flight.js';
import { KEYS, readJson, writeJson, type StorageAdapter } from './storage.js';
import type {
  AccessResult,
  ActiveCampaign,
  ApplyCodeResult,
  AttributionResult,
  BaseClient,
  BaseConfig,
  ClientPlatform,
  IdentifyResult,
  InitResult,
  PurchaseReport,
  PurchaseResult,
  SetReferralCodeResult,
  SyncResult,
  TrackEventInput,
  TrackEventResult,
  ValidationResult,
} from './types.js';

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
  deviceHints?: () => DeviceHints;
}

export const DEFAULT_BASE_URL = 'https://svc.example.com/api';
const ACCESS_TTL_MS = 5 * 60_000;
const NO_ACCESS: AccessResult = { hasAccess: false, source: null, entitlement: null, expiresAt: null, code: null };
const normalizeCode = (code: string): string =>
  String(code ?? '')
    .trim()
    .toUpperCase();
const statusOf = (err: unknown): number | null => (err instanceof SvcError ? err.status : null);
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Drops undefined fields, so answers carry only what is known (request bodies: JSON.stringify drops them). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

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
  let config: Config | null = null;
  let storage: StorageAdapter | null = null;
  let transport: Transport | null = null;
  let outbox: Outbox | null = null;
  let initialized: Promise<InitResult> | null = null;
  let storeDirect = false;
  let launch: LaunchParams | null = null;
  let stopCapture: (() => void) | null = null;

  const ready = () => {
    if (!config || !storage || !transport || !outbox) throw new SvcError('svc: call initialize first', null);
    return { config, storage, transport, outbox, platform: deps.platform(config) };
  };
  const store = (): StorageAdapter => ready().storage;

  async function setAttributes(code: string): Promise<void> {
    const setter = config?.setSubscriberAttributes;
    if (!setter) return;
    try {
      await setter({ svc_code: normalizeCode(code), svc_referral: 'true' });
    } catch {
      // Optional integration (rule 6): a failing provider call never breaks attribution.
    }
  }

  async function installId(s: StorageAdapter): Promise<string> {
    const existing = await s.getItem(KEYS.installId);
    if (existing) return existing;
    const id = uuidV4(deps.randomBytes);
    await s.setItem(KEYS.installId, id); // persisted before the first track-install carries it
    return id;
  }

  async function storedLaunch(s: StorageAdapter): Promise<LaunchParams | null> {
    if (launch || !deps.persistLaunchCode) return launch;
    return readJson<LaunchParams>(s, KEYS.launchCode);
  }

  /** Rule 13: a launch code replaces a stored organic result (an attributed one stays: the first claim wins). */
  async function adoptLaunch(s: StorageAdapter, found: LaunchParams | null): Promise<void> {
    if (!found) return;
    launch = found;
    if (deps.persistLaunchCode) await writeJson(s, KEYS.launchCode, found);
    const cached = await readJson<AttributionResult>(s, KEYS.attribution);
    if (cached && !cached.attributed) await s.removeItem(KEYS.attribution);
  }

  async function sendEvent(body: Record<string, unknown>): Promise<TrackEventResult> {
    const { transport: t, outbox: o } = ready();
    const id = String(body.eventId);
    return flight(`event:${id}`, async () => {
      try {
        const res = await t.call<TrackEventResult>('POST', '/sdk/event', body);
        await o.remove('events', id);
        return res;
      } catch (err) {
        if (err instanceof SvcError && !err.retryable) await o.remove('events', id); // refused for good (422)
        return { tracked: false, event_id: id };
      }
    });
  }

  async function sendPurchase(storeId: string, body: Record<string, unknown>): Promise<PurchaseResult> {
    const { transport: t, outbox: o, storage: s } = ready();
    return flight(`purchase:${storeId}`, async () => {
      try {
        const res = await t.call<PurchaseResult>('POST', '/sdk/purchase', body);
        const sent = (await readJson<string[]>(s, KEYS.reportedPurchases)) ?? [];
        if (!sent.includes(storeId)) await writeJson(s, KEYS.reportedPurchases, [...sent, storeId]);
        await o.remove('purchases', storeId);
        return res;
      } catch (err) {
        if (err instanceof SvcError && !err.retryable) await o.remove('purchases', storeId);
        throw err;
      }
    });
  }

  async function isSent(storeId: string): Promise<boolean> {
    return ((await readJson<string[]>(store(), KEYS.reportedPurchases)) ?? []).includes(storeId);
  }

  const client: SvcCore<Config> = {
    initialize(next: Config): Promise<InitResult> {
      if (!next || typeof next.apiKey !== 'string' || next.apiKey.trim() === '') {
        return Promise.reject(new TypeError('svc: apiKey required'));
      }
      // A second mount with the same key shares the first call; a failed call may be retried.
      if (initialized && config?.apiKey === next.apiKey && config.baseUrl === next.baseUrl) return initialized;
      return (initialized = flight('init', async () => {
        config = next;
        storage = deps.storage(next);
        outbox = new Outbox(storage);
        transport = createTransport({
          baseUrl: next.baseUrl ?? DEFAULT_BASE_URL,
          apiKey: next.apiKey,
          fetch: deps.fetch(),
          timeoutMs: next.timeoutMs ?? 15_000,
        });
        const s = storage;
        await adoptLaunch(s, deps.captureLaunch?.(next) ?? parseInstallReferrer(next.installReferrer));
        const res = await transport.call<InitResult>('POST', '/sdk/init', {
          app_version: next.appVersion ?? 'unknown',
          sdk_version: deps.sdkVersion,
          platform: deps.platform(next),
          sdk_name: deps.sdkName,
          ...deps.initFields?.(next),
        });
        await s.setItem(KEYS.initialized, 'true');
        storeDirect = res.store_direct === true;
        stopCapture?.();
        stopCapture = null;
        // Rule 1: auto capture only on a store-direct platform, and only when the host does not report itself.
        if (storeDirect && next.autoCapture !== false && next.purchaseSource?.onPurchase) {
          stopCapture = next.purchaseSource.onPurchase((p) => {
            void isSent(purchaseStoreId(p))
              .then((sent) => (sent ? undefined : client.reportPurchase(p)))
              .catch(() => undefined);
          });
        }
        await client.flush().catch(() => undefined);
        return res;
      }).catch((err: unknown) => {
        initialized = null;
        throw err;
      }));
    },

    flush() {
      return flight('flush', async () => {
        const { outbox: o } = ready();
        const pending = await o.pending();
        let events = 0;
        let purchases = 0;
        for (const body of Object.values(pending.events)) if ((await sendEvent(body)).tracked) events += 1;
        for (const [id, body] of Object.entries(pending.purchases)) {
          try {
            await sendPurchase(id, body);
            purchases += 1;
          } catch {
            // still pending (retryable) or dropped (refused); the host's own call reports the error
          }
        }
        return { events, purchases };
      });
    },

    checkAttribution(): Promise<AttributionResult> {
      return flight('attribution', async () => {
        let ctx: ReturnType<typeof ready>;
        try {
          ctx = ready();
        } catch (err) {
          return { attributed: false, message: messageOf(err) };
        }
        const s = ctx.storage;
        const cached = await readJson<AttributionResult>(s, KEYS.attribution);
        if (cached) return cached;
        const link = await storedLaunch(s);
        let res: AttributionResult;
        try {
          res = await ctx.transport.call<AttributionResult>('POST', '/sdk/track-install', {
            platform: ctx.platform,
            device_id: await installId(s),
            ...deps.deviceHints?.(),
            referral_code: link?.code,
            click_id: link?.clickId ?? undefined,
          });
        } catch (err) {
          return { attributed: false, message: messageOf(err) }; // rule 2: nothing stored on failure
        }
        await writeJson(s, KEYS.attribution, res);
        if (res.attributed && res.referral_code) {
          await s.setItem(KEYS.code, normalizeCode(res.referral_code));
          await setAttributes(res.referral_code);
        }
        return res;
      });
    },

    async identify(appUserId, properties) {
      const fail = (message: string): IdentifyResult => ({
        identified: false,
        app_user_id: appUserId,
        attribution_backfilled: false,
        ...{ message },
      });
      try {
        const { storage: s, transport: t, platform } = ready();
        if (typeof appUserId !== 'string' || appUserId === '') return fail('svc: empty user id');
        await s.setItem(KEYS.appUserId, appUserId);
        return await t.call<IdentifyResult>('POST', '/sdk/identify', {
          app_user_id: appUserId,
          properties,
          device_id: await installId(s),
          platform,
        });
      } catch (err) {
        return fail(messageOf(err));
      }
    },

    async trackEvent(input: TrackEventInput) {
      let ctx: ReturnType<typeof ready>;
      try {
        ctx = ready();
      } catch {
        return { tracked: false };
      }
      const appUserId = input.appUserId ?? (await ctx.storage.getItem(KEYS.appUserId));
      if (!appUserId || !input.eventType) return { tracked: false };
      const properties = input.properties ?? {};
      const code = input.referralCode ? normalizeCode(input.referralCode) : await ctx.storage.getItem(KEYS.code);
      const eventId = input.eventId ?? derivedEventId(input.eventType, appUserId, properties) ?? uuidV4(deps.randomBytes);
      const body = await ctx.outbox.put('events', eventId, {
        eventType: input.eventType,
        appUserId,
        properties,
        referralCode: code ?? undefined,
        eventId,
        platform: ctx.platform,
      });
      return sendEvent(body);
    },

    async validateCode(code) {
      try {
        return await ready().transport.call<ValidationResult>('POST', '/sdk/validate-code', { code: normalizeCode(code) });
      } catch (err) {
        return { valid: false, error: messageOf(err), error_code: 'NETWORK_ERROR' };
      }
    },

    async setReferralCode(code, appUserId) {
      try {
        const { storage: s, transport: t } = ready();
        const user = appUserId ?? (await s.getItem(KEYS.appUserId)) ?? undefined;
        const res = await t.call<SetReferralCodeResult>('POST', '/sdk/set-referral-code', { code: normalizeCode(code), app_user_id: user });
        if (res.success && res.free_access) await s.removeItem(KEYS.access); // the next checkAccess asks again
        if (res.success && !res.free_access && res.code) {
          // Kept only after the server accepted it (web 1.0.1, React Native 1.6.1); free-access codes grant access
          // instead and are no creator's code.
          await s.setItem(KEYS.code, normalizeCode(res.code));
          await setAttributes(res.code);
        }
        return res;
      } catch (err) {
        const status = statusOf(err);
        if (status === 404) return { success: false, error: messageOf(err), error_code: 'CODE_NOT_FOUND' };
        return defined({ success: false, error: messageOf(err), error_code: status === null ? ('NETWORK_ERROR' as const) : undefined });
      }
    },

    async applyCode(code) {
      const validation = await client.validateCode(code);
      const base = { code: validation.code ?? normalizeCode(code), campaign: validation.campaign, influencer: validation.influencer };
      if (!validation.valid) {
        return defined<ApplyCodeResult>({
          applied: false,
          valid: false,
          success: false,
          ...base,
          error: validation.error,
          error_code: validation.error_code,
        });
      }
      const set = await client.setReferralCode(code);
      return defined<ApplyCodeResult>({
        applied: set.success,
        valid: true,
        success: set.success,
        ...base,
        code: set.code ?? base.code,
        message: set.message ?? validation.message,
        error: set.error,
        error_code: set.error_code,
      });
    },

    async getReferralCode() {
      return storage ? storage.getItem(KEYS.code) : null;
    },

    async getAppUserId() {
      return storage ? storage.getItem(KEYS.appUserId) : null;
    },

    async checkAccess(appUserId) {
      if (!storage || !transport) return NO_ACCESS;
      const s = storage;
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

    async reportPurchase(purchase: PurchaseReport) {
      const { storage: s, outbox: o } = ready();
      const storeId = purchaseStoreId(purchase);
      const sent = (await readJson<string[]>(s, KEYS.reportedPurchases)) ?? [];
      // Rule 7: the stored code goes with the first transaction, where it binds the purchase to the creator.
      const code = purchase.referralCode ? normalizeCode(purchase.referralCode) : sent.length === 0 ? await s.getItem(KEYS.code) : null;
      const body = await o.put('purchases', storeId, {
        platform: purchase.platform,
        signedTransaction: purchase.signedTransaction,
        purchaseToken: purchase.purchaseToken,
        productId: purchase.productId,
        price: purchase.price,
        currency: purchase.currency,
        referralCode: code ?? undefined,
        appUserId: purchase.appUserId ?? (await s.getItem(KEYS.appUserId)) ?? undefined,
      });
      return sendPurchase(storeId, body);
    },

    async syncPurchases(): Promise<SyncResult> {
      const source = config?.purchaseSource;
      if (!storage || !storeDirect || !source) return { fetched: 0, sent: 0, failed: 0 };
      let purchases: PurchaseReport[];
      try {
        purchases = await source.getPurchases();
      } catch {
        return { fetched: 0, sent: 0, failed: 0 };
      }
      const result: SyncResult = { fetched: purchases.length, sent: 0, failed: 0 };
      for (const p of purchases) {
        if (await isSent(purchaseStoreId(p))) continue; // rule 12: `sent` excludes already-reported purchases
        try {
          await client.reportPurchase(p);
          result.sent += 1;
        } catch {
          result.failed += 1;
        }
      }
      return result;
    },

    async clearAttribution() {
      launch = null;
      if (!storage) return;
      for (const key of deps.clearedKeys) await storage.removeItem(key);
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
  return client;
}

export { SvcError };
