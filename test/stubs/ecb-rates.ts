// A local stand-in for the ECB's euro reference rates: /stats/eurofxref/eurofxref-daily.xml, -hist-90d.xml and
// -hist.xml in the ECB's XML format, built from the rates the test sets (`days`: date -> currency -> units per EUR;
// only TARGET business days are published, so weekends simply have no entry). The 90-day file holds the days of the
// last 90 calendar days, the daily file the latest day. `failWith` forces an error status; `requests` counts reads.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EcbStub {
  /** FX_RATES_URL: the 90-day file. */
  url: string;
  days: Map<string, Record<string, string>>;
  failWith: number | null;
  requests: Record<string, number>;
  close(): Promise<void>;
}

function xml(days: [string, Record<string, string>][]): string {
  const cubes = days.map(
    ([date, rates]) =>
      `\t\t<Cube time='${date}'>\n${Object.entries(rates)
        .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`)
        .join('\n')}\n\t\t</Cube>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes.join('\n')}
\t</Cube>
</gesmes:Envelope>`;
}

/** Weekdays from `from` to `to` (inclusive) with the given rates: a stand-in for TARGET business days. */
export function businessDays(from: string, to: string, rates: Record<string, string>): [string, Record<string, string>][] {
  const out: [string, Record<string, string>][] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push([d.toISOString().slice(0, 10), { ...rates }]);
  }
  return out;
}

export async function startEcbStub(): Promise<EcbStub> {
  const stub: EcbStub = { url: '', days: new Map(), failWith: null, requests: {}, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    req.resume();
    const file = new URL(req.url ?? '/', 'http://stub').pathname.split('/').pop() ?? '';
    stub.requests[file] = (stub.requests[file] ?? 0) + 1;
    if (stub.failWith) {
      res.statusCode = stub.failWith;
      res.end('<html><body>Service unavailable</body></html>');
      return;
    }
    const newestFirst = [...stub.days.entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1));
    const cutoff = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
    const pick =
      file === 'eurofxref-hist.xml'
        ? newestFirst
        : file === 'eurofxref-hist-90d.xml'
          ? newestFirst.filter(([d]) => d >= cutoff)
          : file === 'eurofxref-daily.xml'
            ? newestFirst.slice(0, 1)
            : undefined;
    if (!pick) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/xml');
    res.end(xml(pick));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats/eurofxref/eurofxref-hist-90d.xml`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
