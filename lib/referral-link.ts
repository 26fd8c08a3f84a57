// Rules of a referral link visit (`{base_url}/{slug}/{code}`, CONTRACT.md "Referral links"): which device hints a
// click keeps, where the visitor is sent, and how the code and click id travel into the app.
import { hintsFromUserAgent, type DeviceHints } from './device.js';
import type { Platform } from '../schema/types.js';
export interface LinkApp {
  ios_store_url: string | null;
  android_store_url: string | null;
  web_url: string | null;
}

export interface LinkCodeState {
  status: string;
  campaignStatus: string;
}

/** Codes attribute only while the code and its campaign are active; other links still lead to the app. */
export function linkAttributes(code: LinkCodeState): boolean {
  return code.status === 'active' && code.campaignStatus === 'active';
}

export type QueryValue = string | string[] | undefined;

export interface LinkHints extends DeviceHints {
  platform: Platform | null;
  /** Every query parameter of the link except our own `svc_*` ones, kept as the click's raw device hints. */
  raw: Record<string, string>;
}

const PLATFORMS = new Set<string>(['ios', 'android', 'web']);
const MAX_RAW_KEYS = 20;

function first(v: QueryValue, max: number): string | undefined {
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  return s ? s.slice(0, max) : undefined;
}

/**
 * Device hints of a click. The link's query (a web page or app that builds the link knows the device) wins over
 * the User-Agent guess; a UA OS version is kept only when the UA's platform is the one that won.
 */
export function linkHints(query: Record<string, QueryValue>, userAgent: string | undefined): LinkHints {
  const ua = hintsFromUserAgent(userAgent);
  const asked = first(query.platform, 16)?.toLowerCase();
  const platform = asked && PLATFORMS.has(asked) ? (asked as Platform) : (ua.platform ?? null);
  const uaOsVersion = ua.platform === platform ? ua.osVersion : undefined;
  return {
    platform,
    osVersion: first(query.os_version, 32) ?? first(query.os, 32) ?? uaOsVersion ?? null,
    language: first(query.lang, 35) ?? first(query.language, 35) ?? null,
    timezone: first(query.tz, 64) ?? first(query.timezone, 64) ?? null,
    screen: first(query.screen, 32) ?? null,
    raw: rawHints(query),
  };
}

function rawHints(query: Record<string, QueryValue>): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (Object.keys(raw).length >= MAX_RAW_KEYS) break;
    const v = first(value, 256);
    if (v !== undefined && key.length <= 64 && !key.toLowerCase().startsWith('svc_')) raw[key] = v;
  }
  return raw;
}

function parseHttpUrl(s: string | null): URL | undefined {
  if (!s) return undefined;
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The platform's store (web for anything else), else whichever URL the app has, web first. */
export function destinationUrl(app: LinkApp, platform: Platform | null): URL | undefined {
  const preferred = platform === 'ios' ? app.ios_store_url : platform === 'android' ? app.android_store_url : app.web_url;
  for (const candidate of [preferred, app.web_url, app.ios_store_url, app.android_store_url]) {
    const url = parseHttpUrl(candidate);
    if (url) return url;
  }
  return undefined;
}

export interface ReferralParams {
  svc_code?: string;
  svc_click?: string;
}

/**
 * Adds `svc_code` / `svc_click` to the destination, keeping its own query. Google Play hands only its `referrer`
 * parameter to the installed app (the install-referrer string), so there they also go inside `referrer`, merged
 * with whatever referrer the developer's URL already carries.
 */
export function withReferralParams(destination: URL, params: ReferralParams): string {
  const url = new URL(destination);
  const entries = Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string');
  for (const [key, value] of entries) url.searchParams.set(key, value);
  if (url.hostname === 'play.google.com' && entries.length > 0) {
    const referrer = new URLSearchParams(url.searchParams.get('referrer') ?? '');
    for (const [key, value] of entries) referrer.set(key, value);
    url.searchParams.set('referrer', referrer.toString());
  }
  return url.toString();
}

/** A creator's referral link, `{BASE_URL}/{app_slug}/{code}`: written once for every place that shows or mails it. */
export function creatorLinkUrl(baseUrl: string, appSlug: string, code: string): string {
  return `${baseUrl}/${appSlug}/${code}`;
}
