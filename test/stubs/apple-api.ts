// A local stand-in for the App Store Server API's test-notification and notification-history endpoints: verifies the
// ES256 bearer JWT with the expected public key and its kid / iss / aud / bid claims, answers 200 `{testNotificationToken}`
// (then, when `onTestNotification` is set, sends the TEST notification as Apple does) or 401 with Apple's error body.
// The history serves `history.pages` (signed payloads) page by page with Apple's paginationToken / hasMore, and
// answers 429 once per `history.rateLimitOnce`. `failWith` forces an error status (e.g. 503); `delayMs` holds each
// answer (a check that takes time). Records what it received.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify, type KeyObject } from 'node:crypto';

export interface AppleExpect {
  publicKey: KeyObject;
  kid: string;
  iss: string;
  bid: string;
}

export interface AppleHistory {
  pages: string[][];
  rateLimitOnce: boolean;
  requests: { startDate?: number; endDate?: number; paginationToken: string | null; status: number }[];
}

export interface AppleStub {
  url: string;
  calls: { method: string; path: string; ok: boolean }[];
  failWith: number | null;
  delayMs: number;
  expect: AppleExpect | null;
  history: AppleHistory;
  onTestNotification: (() => Promise<void>) | null;
  close(): Promise<void>;
}

function jwtValid(token: string, e: AppleExpect): boolean {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return false;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, number | string>;
    const signed = verify('sha256', Buffer.from(`${h}.${p}`), { key: e.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
    const now = Date.now() / 1000;
    return (
      signed &&
      header.alg === 'ES256' &&
      header.kid === e.kid &&
      header.typ === 'JWT' &&
      claims.iss === e.iss &&
      claims.bid === e.bid &&
      claims.aud === 'appstoreconnect-v1' &&
      Number(claims.iat) <= now + 5 &&
      Number(claims.exp) > now &&
      Number(claims.exp) - Number(claims.iat) <= 3600
    );
  } catch {
    return false;
  }
}

export async function startAppleStub(): Promise<AppleStub> {
  const stub: AppleStub = {
    url: '',
    calls: [],
    failWith: null,
    delayMs: 0,
    expect: null,
    history: { pages: [], rateLimitOnce: false, requests: [] },
    onTestNotification: null,
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void answer());
    const answer = async () => {
      if (stub.delayMs) await new Promise((r) => setTimeout(r, stub.delayMs));
      const auth = req.headers.authorization ?? '';
      const url = new URL(req.url ?? '/', 'http://stub');
      const path = url.pathname;
      const authorised =
        req.method === 'POST' && stub.expect !== null && auth.startsWith('Bearer ') && jwtValid(auth.slice(7), stub.expect);
      const ok = authorised && (path === '/inApps/v1/notifications/test' || path === '/inApps/v1/notifications/history');
      stub.calls.push({ method: req.method ?? '', path, ok });
      res.setHeader('content-type', 'application/json');
      if (ok && path === '/inApps/v1/notifications/history' && !stub.failWith) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { startDate?: number; endDate?: number };
        const token = url.searchParams.get('paginationToken');
        const limited = stub.history.rateLimitOnce;
        stub.history.rateLimitOnce = false;
        stub.history.requests.push({ ...body, paginationToken: token, status: limited ? 429 : 200 });
        if (limited) {
          res.statusCode = 429;
          res.end(JSON.stringify({ errorCode: 4290000, errorMessage: 'Rate limit exceeded.' }));
          return;
        }
        const index = token ? Number(token) : 0;
        const page = stub.history.pages[index] ?? [];
        const more = index + 1 < stub.history.pages.length;
        res.statusCode = 200;
        res.end(
          JSON.stringify({
            notificationHistory: page.map((signedPayload) => ({ signedPayload })),
            hasMore: more,
            ...(more ? { paginationToken: String(index + 1) } : {}),
          }),
        );
        return;
      }
      if (stub.failWith) {
        res.statusCode = stub.failWith;
        res.end(JSON.stringify({ errorCode: 5000000, errorMessage: 'An unknown error occurred.' }));
      } else if (ok) {
        res.statusCode = 200;
        res.end(JSON.stringify({ testNotificationToken: 'ce3af791-365e-4c60-841b-1674b43c1609_1700000000000' }));
        // Apple sends the TEST notification right after answering.
        if (stub.onTestNotification) void stub.onTestNotification().catch(() => undefined);
      } else {
        res.statusCode = 401;
        res.end(JSON.stringify({ errorCode: 4010000, errorMessage: 'Unauthenticated' }));
      }
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
