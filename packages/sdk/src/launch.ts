// Rule 13: a referral link opens the app with `svc_code` and `svc_click` (web: in the launch URL; Android: also in
// the install-referrer string Google Play hands over, e.g. `svc_code=ABCD&svc_click=clk_1&utm_source=...`). Pure
// string work, so it runs the same under SSR, in a browser and in React Native.

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
