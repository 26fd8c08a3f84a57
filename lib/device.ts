import type { Platform } from '../schema/types.js';
// Device hints and the IP + device matching rule of track-install (documented in docs/client-api.md, track-install):
// a click matches an install when it came from the same IP within the attribution window and every hint that
// BOTH sides carry agrees: platform (from the click's User-Agent or the link's query), OS version (major.minor),
// language (primary subtag), timezone, screen. Hints only one side has are ignored. Most recent unclaimed wins.

export interface DeviceHints {
  platform?: Platform | null;
  osVersion?: string | null;
  language?: string | null;
  timezone?: string | null;
  screen?: string | null;
}

/** Platform and OS version from a User-Agent, as far as a store-redirect click can tell. */
export function hintsFromUserAgent(ua: string | undefined | null): Pick<DeviceHints, 'platform' | 'osVersion'> {
  if (!ua) return {};
  const ios = /(?:iPhone|iPad|iPod)[^)]*?OS (\d+)[_.](\d+)/.exec(ua) ?? /CPU OS (\d+)[_.](\d+)/.exec(ua);
  if (ios) return { platform: 'ios', osVersion: `${ios[1]}.${ios[2]}` };
  if (/iPhone|iPad|iPod/.test(ua)) return { platform: 'ios' };
  const android = /Android (\d+)(?:\.(\d+))?/.exec(ua);
  if (android) return { platform: 'android', osVersion: android[2] ? `${android[1]}.${android[2]}` : android[1] };
  if (/Android/.test(ua)) return { platform: 'android' };
  return { platform: 'web' };
}

function majorMinor(v: string): string {
  return v
    .trim()
    .split(/[._]/)
    .slice(0, 2)
    .map((p) => String(Number.parseInt(p, 10)))
    .join('.');
}

function primaryLanguage(v: string): string {
  return v.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

function normalizeScreen(v: string): string {
  const m = /(\d+)\s*[x×*]\s*(\d+)/i.exec(v);
  if (!m) return v.trim().toLowerCase();
  const [a, b] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y);
  return `${a}x${b}`; // orientation-independent
}

/** Whether the hints of a click and of an install agree (only hints present on both sides are compared). */
export function hintsAgree(click: DeviceHints, install: DeviceHints): boolean {
  const both = <T>(a: T | null | undefined, b: T | null | undefined): a is T => a != null && a !== '' && b != null && b !== '';
  if (both(click.platform, install.platform) && click.platform !== install.platform) return false;
  if (both(click.osVersion, install.osVersion) && majorMinor(click.osVersion) !== majorMinor(install.osVersion!)) return false;
  if (both(click.language, install.language) && primaryLanguage(click.language) !== primaryLanguage(install.language!)) return false;
  if (both(click.timezone, install.timezone) && click.timezone.trim() !== install.timezone!.trim()) return false;
  if (both(click.screen, install.screen) && normalizeScreen(click.screen) !== normalizeScreen(install.screen!)) return false;
  return true;
}
