// A local stand-in for the public store search / lookup API (Apple's iTunes Search API wire format:
// `GET /search?term=&entity=software&country=&limit=` and `GET /lookup?id=`, answering `{resultCount, results}`).
// Records the query of every call; `failWith` makes it answer that HTTP status.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoreSearchStub {
  url: string;
  calls: { path: string; query: Record<string, string> }[];
  failWith: number | null;
  close(): Promise<void>;
}

export const STUB_APPS = [
  {
    wrapperType: 'software',
    kind: 'software',
    trackId: 1234567890,
    trackName: 'Fit Habit: Workout Tracker',
    bundleId: 'com.example.fithabit',
    sellerName: 'Example Labs GmbH',
    artistName: 'Example Labs',
    trackViewUrl: 'https://apps.apple.com/us/app/fit-habit/id1234567890?uo=4',
    artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/fit/100x100bb.jpg',
    description: 'Build a workout habit in 10 minutes a day.',
    primaryGenreName: 'Health & Fitness',
    price: 0,
    currency: 'USD',
  },
  {
    wrapperType: 'software',
    kind: 'software',
    trackId: 987654321,
    trackName: 'Fit Planner',
    bundleId: 'com.example.fitplanner',
    sellerName: 'Planner Co',
    artistName: 'Planner Co',
    trackViewUrl: 'https://apps.apple.com/us/app/fit-planner/id987654321?uo=4',
    artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/plan/100x100bb.jpg',
    description: 'Plan every session.',
    primaryGenreName: 'Productivity',
    price: 2.99,
    currency: 'USD',
  },
];

export async function startStoreSearchStub(): Promise<StoreSearchStub> {
  const stub: StoreSearchStub = { url: '', calls: [], failWith: null, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const query = Object.fromEntries(url.searchParams);
    stub.calls.push({ path: url.pathname, query });
    res.setHeader('content-type', 'text/javascript; charset=utf-8');
    if (stub.failWith) {
      res.statusCode = stub.failWith;
      res.end('<html>Service Unavailable</html>');
      return;
    }
    let results: typeof STUB_APPS = [];
    if (url.pathname === '/search') {
      const term = (query.term ?? '').toLowerCase();
      results = STUB_APPS.filter((a) => a.trackName.toLowerCase().includes(term)).slice(0, Number(query.limit ?? 50));
    } else if (url.pathname === '/lookup') {
      results = STUB_APPS.filter((a) => String(a.trackId) === query.id);
    } else {
      res.statusCode = 404;
      res.end('{"errorMessage":"Invalid request"}');
      return;
    }
    res.end(`\n\n\n${JSON.stringify({ resultCount: results.length, results })}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
