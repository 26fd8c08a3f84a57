// The ECB euro foreign exchange reference rates in their XML format (gesmes:Envelope > Cube > Cube time= > Cube
// currency= rate=): the daily file, the 90-day file and the full history share it. FX_RATES_URL names the file read
// for recent purchases (default: the 90-day file); the full history is its sibling `eurofxref-hist.xml` in the same
// folder (also when FX_RATES_URL is the daily file), so back-synced purchases of any age find their rate.
// Parsed without an XML library: the format is flat and fixed, and anything unexpected yields no rates (an error).

import type { PublishedDay } from '../lib/fx.js';

export type EcbDay = PublishedDay;

const HISTORY_FILE = 'eurofxref-hist.xml';
const KNOWN_FILES = /(eurofxref-daily\.xml|eurofxref-hist-90d\.xml|eurofxref-hist\.xml)$/;

/** The full-history file beside the configured one (the configured URL itself when it names no ECB file). */
export function historyUrlOf(ratesUrl: string): string {
  return KNOWN_FILES.test(ratesUrl) ? ratesUrl.replace(KNOWN_FILES, HISTORY_FILE) : ratesUrl;
}

/** Every published day of the file, oldest first. */
export function parseEcbXml(xml: string): EcbDay[] {
  const days = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const m of xml.matchAll(/<Cube\s+([^>]*?)\/?>/g)) {
    const attrs = Object.fromEntries([...m[1]!.matchAll(/(\w+)\s*=\s*["']([^"']*)["']/g)].map((a) => [a[1]!, a[2]!]));
    if (attrs.time !== undefined) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(attrs.time)) throw new Error(`ECB file: bad date ${attrs.time}`);
      current = days.get(attrs.time) ?? {};
      days.set(attrs.time, current);
    } else if (attrs.currency !== undefined && attrs.rate !== undefined && current) {
      if (/^[A-Z]{3}$/.test(attrs.currency) && /^\d+(\.\d+)?$/.test(attrs.rate) && Number(attrs.rate) > 0)
        current[attrs.currency] = attrs.rate;
    }
  }
  return [...days.entries()].map(([date, rates]) => ({ date, rates })).sort((a, b) => (a.date < b.date ? -1 : 1));
}

export class FxSourceUnavailable extends Error {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`exchange rates unavailable from ${url}: ${reason}`);
    this.name = 'FxSourceUnavailable';
  }
}

/** Fetches and parses one ECB file; throws FxSourceUnavailable on any HTTP, network or format problem. */
export async function fetchEcbFile(url: string, timeoutMs = 30_000): Promise<EcbDay[]> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/xml, text/xml' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new FxSourceUnavailable(url, err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network error');
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new FxSourceUnavailable(url, `HTTP ${res.status}`);
  const days = parseEcbXml(text);
  if (days.length === 0) throw new FxSourceUnavailable(url, 'no rates in the file');
  return days;
}
