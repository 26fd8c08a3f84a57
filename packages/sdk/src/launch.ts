// Rule 13: a referral link opens the app with `svc_code` and `svc_click` (web: in the launch URL; Android: also in
// the install-referrer string Google Play hands over, e.g. `svc_code=ABCD&svc_click=clk_1&utm_source=...`). Pure
// string work, so it runs the same under SSR, in a browser and in React Native. Beside the string, Play reports when
// the referral was clicked and the install began: track-install carries those times as `install_referrer`.
import type { InstallReferrerTimes } from './types.js';

export interface LaunchParams {
  code: string;
  clickId: string | null;
}

/** Google Play reports a missing value as the literal `(not set)`: that is no code. */
const isUnset = (value: string | null): boolean => !value || value.trim() === '' || value.trim().toLowerCase() === '(not set)';

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** Parameters of a query string (without or with a leading `?`), last one wins. */
function queryParams(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of query.replace(/^\?/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    out.set(decode(eq < 0 ? part : part.slice(0, eq)), decode(eq < 0 ? '' : part.slice(eq + 1)));
  }
  return out;
}

function fromParams(params: Map<string, string>): LaunchParams | null {
  const code = params.get('svc_code') ?? null;
  if (isUnset(code)) return null;
  const click = params.get('svc_click') ?? null;
  return { code: code!.trim().toUpperCase(), clickId: isUnset(click) ? null : click!.trim() };
}

/** The Android install-referrer string (a query string, possibly URL-encoded as a whole). */
export function parseInstallReferrer(referrer: string | null | undefined): LaunchParams | null {
  if (!referrer) return null;
  const raw = referrer.includes('svc_code=') ? referrer : decode(referrer);
  return fromParams(queryParams(raw));
}

function splitUrl(url: string): { head: string; query: string; hash: string } {
  const hashAt = url.indexOf('#');
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const rest = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  return { head: queryAt < 0 ? rest : rest.slice(0, queryAt), query: queryAt < 0 ? '' : rest.slice(queryAt + 1), hash };
}

/** `svc_code` / `svc_click` of a launch URL; a Play-style `referrer` parameter is read too. */
export function parseLaunchUrl(url: string): LaunchParams | null {
  const params = queryParams(splitUrl(url).query);
  return fromParams(params) ?? parseInstallReferrer(params.get('referrer') ?? null);
}

const OWN = new Set(['svc_code', 'svc_click']);

/** The URL without `svc_code` and `svc_click`; every other parameter (kept verbatim, in order) and the hash stay. */
export function cleanLaunchUrl(url: string): string {
  const { head, query, hash } = splitUrl(url);
  const kept = query.split('&').filter((part) => part && !OWN.has(decode(part.split('=')[0]!)));
  return `${head}${kept.length ? `?${kept.join('&')}` : ''}${hash}`;
}

/** 2100-01-01T00:00:00Z: the service refuses later times (and negative or fractional ones) with a 422. */
const MAX_PLAY_SECONDS = 4_102_444_800;
const playSeconds = (v: number | undefined): number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_PLAY_SECONDS ? v : 0;

/** track-install's `install_referrer`: Play's times by Play's names, a refused value as 0; none known: undefined. */
export function installReferrerBody(times: InstallReferrerTimes | null | undefined): Record<string, number> | undefined {
  if (!times) return undefined;
  const body = {
    referrer_click_timestamp_seconds: playSeconds(times.referrerClickTimestampSeconds),
    install_begin_timestamp_seconds: playSeconds(times.installBeginTimestampSeconds),
    install_begin_timestamp_server_seconds: playSeconds(times.installBeginTimestampServerSeconds),
  };
  return Object.values(body).some((v) => v > 0) ? body : undefined;
}
