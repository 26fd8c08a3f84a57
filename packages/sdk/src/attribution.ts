// Who the install is and who sent it (rules 2, 3, 4, 6, 11, 13): the install id, the launch code, track-install's
// answer kept in storage, identify, the creator code the server accepted and the provider attributes set from it.
import { messageOf, SvcError } from './http.js';
import { uuidV4, type RandomBytes } from './ids.js';
import type { LaunchParams } from './launch.js';
import type { CurrentSession, ReadySession } from './session.js';
import type { SingleFlight } from './single-flight.js';
import { KEYS, readJson, writeJson, type StorageAdapter } from './storage.js';
import type { ApplyCodeResult, AttributionResult, BaseClient, IdentifyResult, SetReferralCodeResult, ValidationResult } from './types.js';

/** The part of CoreDeps (client.ts) attribution uses. */
export interface AttributionDeps {
  randomBytes: RandomBytes;
  clearedKeys: readonly string[];
  persistLaunchCode: boolean;
  deviceHints?: () => object;
}

export type Attribution = Pick<
  BaseClient<never>,
  'checkAttribution' | 'identify' | 'validateCode' | 'setReferralCode' | 'applyCode' | 'clearAttribution'
>;
/** Rule 13: a launch code replaces a stored organic result (an attributed one stays: the first claim wins). */
export type AdoptLaunch = (s: StorageAdapter, found: LaunchParams | null) => Promise<void>;

export const normalizeCode = (code: string): string =>
  String(code ?? '')
    .trim()
    .toUpperCase();

/** Drops undefined fields, so answers carry only what is known (request bodies: JSON.stringify drops them). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The client's calls, and adoptLaunch for initialize (kept off the client object). */
export function createAttribution(
  deps: AttributionDeps,
  ready: ReadySession,
  current: CurrentSession,
  flight: SingleFlight,
): [Attribution, AdoptLaunch] {
  let launch: LaunchParams | null = null;

  async function setAttributes(code: string): Promise<void> {
    const setter = current()?.config.setSubscriberAttributes;
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

  const adoptLaunch: AdoptLaunch = async (s, found) => {
    if (!found) return;
    launch = found;
    if (deps.persistLaunchCode) await writeJson(s, KEYS.launchCode, found);
    const cached = await readJson<AttributionResult>(s, KEYS.attribution);
    if (cached && !cached.attributed) await s.removeItem(KEYS.attribution);
  };

  const attribution: Attribution = {
    checkAttribution() {
      return flight('attribution', async () => {
        let ctx: ReturnType<ReadySession>;
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
        const status = err instanceof SvcError ? err.status : null; // null: no answer
        if (status === 404) return { success: false, error: messageOf(err), error_code: 'CODE_NOT_FOUND' };
        return defined({ success: false, error: messageOf(err), error_code: status === null ? ('NETWORK_ERROR' as const) : undefined });
      }
    },

    async applyCode(code) {
      const validation = await attribution.validateCode(code);
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
      const set = await attribution.setReferralCode(code);
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

    async clearAttribution() {
      launch = null;
      const s = current()?.storage;
      if (!s) return;
      for (const key of deps.clearedKeys) await s.removeItem(key);
    },
  };
  return [attribution, adoptLaunch];
}
