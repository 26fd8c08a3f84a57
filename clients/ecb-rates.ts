// The ECB euro foreign exchange reference rates in their XML format (gesmes:Envelope > Cube > Cube time= > Cube
// currency= rate=): the daily file, the 90-day file and the full history share it. FX_RATES_URL names the file read
// for recent purchases (default: the 90-day file); the full history is its sibling `eurofxref-hist.xml` in the same
// folder (also when FX_RATES_URL is the daily file), so back-synced purchases of any age find their rate.
// Read with fast-xml-parser (the regular expressions this replaced scanned `<Cube ...>` tags and their attributes).
// A text that is no such envelope yields no rates (fetchEcbFile's 'no rates in the file'); a malformed rate or currency
// is skipped, a malformed date throws. The reader costs about 3x the CPU of the regular expressions (a 63-day file:
// 36 ms against 8.5 ms; a 7,280-day full history: about 3 s against 1.1 s on a loaded 2-core machine), paid only when
// a rate is missing from the PostgreSQL cache (db/fx-rates.ts).

import { XMLParser } from 'fast-xml-parser';
import type { PublishedDay } from '../lib/fx.js';

export type EcbDay = PublishedDay;

const HISTORY_FILE = 'eurofxref-hist.xml';
const KNOWN_FILES = /(eurofxref-daily\.xml|eurofxref-hist-90d\.xml|eurofxref-hist\.xml)$/;

/** The full-history file beside the configured one (the configured URL itself when it names no ECB file). */
export function historyUrlOf(ratesUrl: string): string {
  return KNOWN_FILES.test(ratesUrl) ? ratesUrl.replace(KNOWN_FILES, HISTORY_FILE) : ratesUrl;
}

// The envelope holds one Cube, that a Cube per day (time=), each of those a Cube per currency (currency= rate=).
// Attribute values stay text: rates are decimal strings to lib/fx.ts.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  isArray: (name) => name === 'Cube',
});
type Cube = { time?: string; currency?: string; rate?: string; Cube?: Cube[] };

/** Every published day of the file, oldest first. */
export function parseEcbXml(xml: string): EcbDay[] {
  const days = new Map<string, Record<string, string>>();
  for (const { time, Cube: currencies = [] } of dayCubes(xml)) {
    if (time === undefined) continue;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(time)) throw new Error(`ECB file: bad date ${time}`);
    const rates = days.get(time) ?? {};
    days.set(time, rates);
    for (const { currency = '', rate = '' } of currencies)
      if (/^[A-Z]{3}$/.test(currency) && /^\d+(\.\d+)?$/.test(rate) && Number(rate) > 0) rates[currency] = rate;
  }
  return [...days.entries()].map(([date, rates]) => ({ date, rates })).sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The day Cubes of an ECB envelope: none when the text is no such envelope (an HTML error page, or not XML). */
function dayCubes(xml: string): Cube[] {
  try {
    const doc = parser.parse(xml) as { Envelope?: { Cube?: Cube[] } };
    return (doc.Envelope?.Cube ?? []).flatMap((outer) => outer.Cube ?? []);
  } catch {
    return [];
  }
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
