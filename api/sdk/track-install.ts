// POST /api/sdk/track-install: decides once per install whether it was referred (spec "track-install").
import { getAttributionSettings } from '../../db/apps.js';
import { recordInstall } from '../../actions/sdk-intake/install.js';
import { camelAliases } from '../../lib/aliases.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { sdkAppOf } from './sdk-app.js';

const text = (max: number) => ({ type: 'string', maxLength: max }) as const;

/** 2100-01-01T00:00:00Z: a later Play Install Referrer time is a broken client, refused (docs/client-api.md). */
export const INSTALL_REFERRER_MAX_SECONDS = 4_102_444_800;
const playSeconds = { type: 'integer', minimum: 0, maximum: INSTALL_REFERRER_MAX_SECONDS } as const;
/** The Play Install Referrer API's times, by its own names (ReferrerDetails getters); 0 is Play's "unknown". */
const installReferrerBody = {
  type: 'object',
  properties: {
    referrer_click_timestamp_seconds: playSeconds,
    install_begin_timestamp_seconds: playSeconds,
    install_begin_timestamp_server_seconds: playSeconds,
  },
} as const;

export const trackInstallBody = {
  type: 'object',
  required: ['platform'],
  properties: {
    platform: { enum: ['ios', 'android', 'web'] },
    device_id: { type: 'string', minLength: 1, maxLength: 128 },
    device_brand: text(64),
    device_model: text(64),
    os_version: text(32),
    app_version: text(64),
    screen_resolution: text(32),
    timezone: text(64),
    language: text(35),
    referral_code: text(64),
    click_id: text(64),
    install_referrer: installReferrerBody,
  },
} as const;

export const trackInstallAliases = camelAliases(Object.keys(trackInstallBody.properties));
export const trackInstallNestedAliases = { install_referrer: camelAliases(Object.keys(installReferrerBody.properties)) };

interface InstallReferrerTimes {
  referrer_click_timestamp_seconds?: number;
  install_begin_timestamp_seconds?: number;
  install_begin_timestamp_server_seconds?: number;
}

interface TrackInstallBody {
  platform: 'ios' | 'android' | 'web';
  device_id?: string;
  device_brand?: string;
  device_model?: string;
  os_version?: string;
  app_version?: string;
  screen_resolution?: string;
  timezone?: string;
  language?: string;
  referral_code?: string;
  click_id?: string;
  install_referrer?: InstallReferrerTimes;
}

/** Play's seconds as a time; 0 (Play's "unknown") and absent are null. */
const playTime = (seconds: number | undefined): Date | null => (seconds ? new Date(seconds * 1000) : null);

export async function trackInstall(ctx: AppContext): Promise<void> {
  const b = inputOf<TrackInstallBody>(ctx);
  const { appId } = sdkAppOf(ctx);
  const settings = await getAttributionSettings(ctx.deps.db, appId);
  const decision = await recordInstall(ctx.deps, {
    appId,
    windowHours: settings.attribution_window_hours,
    deviceId: b.device_id ?? null,
    platform: b.platform,
    deviceBrand: b.device_brand,
    deviceModel: b.device_model,
    osVersion: b.os_version,
    appVersion: b.app_version,
    screenResolution: b.screen_resolution,
    timezone: b.timezone,
    language: b.language,
    ip: ctx.state.clientIp || null,
    ipViaUntrustedProxy: ctx.state.viaUntrustedProxy,
    userAgent: ctx.get('user-agent') || null,
    referralCode: b.referral_code ?? null,
    clickId: b.click_id ?? null,
    referrerClickAt: playTime(b.install_referrer?.referrer_click_timestamp_seconds),
    installBeginAt: playTime(b.install_referrer?.install_begin_timestamp_seconds),
    installBeginServerAt: playTime(b.install_referrer?.install_begin_timestamp_server_seconds),
  });
  if (!decision.attributed) {
    ctx.body = {
      attributed: false,
      install_recorded: decision.installRecorded,
      message: 'No matching referral click was found; the install is organic.',
    };
    return;
  }
  ctx.body = {
    attributed: true,
    referral_code: decision.click.code,
    attribution_method: decision.method,
    clicked_at: new Date(decision.click.clickedAt).toISOString(),
    click_id: decision.click.id,
    install_recorded: decision.installRecorded,
    message: `Install attributed to referral code ${decision.click.code}.`,
    ...(decision.reClaimed ? { re_claimed: true } : {}),
  };
}
