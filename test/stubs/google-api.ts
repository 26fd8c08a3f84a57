// A local stand-in for Google: the OAuth token endpoint (service-account JWT bearer grant; the RS256 assertion
// verified with the expected public key, audience Google's own token URL as Google requires) and androidpublisher v3:
// the reviews list (the green-check), purchases.subscriptionsv2.get, purchases.products.get and
// purchases.voidedpurchases.list, each checking the issued bearer token and the package, answering Google's JSON
// (and its error shape). Purchases are what the test puts in `subscriptions` / `products` (by token), voided orders
// what it puts in `voided` (listed as Google does: type 0 only one-time products, type 1 also subscriptions; the
// window on the time of the void, startTime at most 30 days back, endTime not in the future; token paging). `failWith` forces an error
// status on androidpublisher calls; `delayMs` holds their answers (a verification that takes time).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, verify, type KeyObject } from 'node:crypto';

export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';

export interface GoogleExpect {
  publicKey: KeyObject;
  clientEmail: string;
  packageName: string;
}

export interface GoogleStub {
  url: string;
  tokenUrl: string;
  calls: { method: string; path: string; status: number; query: string }[];
  failWith: number | null;
  delayMs: number;
  expect: GoogleExpect | null;
  /** SubscriptionPurchaseV2 bodies by purchase token. */
  subscriptions: Map<string, Record<string, unknown>>;
  /** ProductPurchase bodies by `${productId}/${token}`. */
  products: Map<string, Record<string, unknown>>;
  /** Voided orders, as VoidedPurchase bodies; `subscription` (not sent) marks a subscription order, `packageName` (not sent) its app. */
  voided: (Record<string, unknown> & {
    orderId: string;
    purchaseToken: string;
    voidedTimeMillis: string;
    subscription?: boolean;
    packageName?: string;
  })[];
  tokensIssued: number;
  close(): Promise<void>;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function assertionValid(jwt: string, e: GoogleExpect): boolean {
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) return false;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, number | string>;
    const now = Date.now() / 1000;
    return (
      header.alg === 'RS256' &&
      verify('sha256', Buffer.from(`${h}.${p}`), e.publicKey, Buffer.from(s, 'base64url')) &&
      claims.iss === e.clientEmail &&
      claims.aud === GOOGLE_TOKEN_AUDIENCE &&
      claims.scope === 'https://www.googleapis.com/auth/androidpublisher' &&
      Number(claims.iat) <= now + 5 &&
      Number(claims.exp) > now
    );
  } catch {
    return false;
  }
}

const googleError = (code: number, message: string, reason: string) => ({
  error: { code, message, errors: [{ message, domain: 'global', reason }] },
});

const VOIDED_MAX_AGE_MS = 30 * 86_400_000;

/** purchases.voidedpurchases.list: the window and type filters, then token paging (the token is the next offset). */
function listVoided(stub: GoogleStub, packageName: string, q: URLSearchParams): { body: unknown } | { error: string } {
  const now = Date.now();
  const start = Number(q.get('startTime') ?? now - VOIDED_MAX_AGE_MS);
  const end = Number(q.get('endTime') ?? now);
  const max = Math.min(Number(q.get('maxResults') ?? 1000), 1000);
  if (!Number.isInteger(start) || !Number.isInteger(end) || !Number.isInteger(max) || max < 1) return { error: 'Invalid Value' };
  if (start < now - VOIDED_MAX_AGE_MS - 60_000) return { error: 'startTime is too old: it cannot be more than 30 days ago.' };
  if (end > now + 60_000) return { error: 'endTime cannot be in the future.' };
  if (start > end) return { error: 'startTime must be before endTime.' };
  const all = stub.voided
    .filter(
      (v) =>
        (v.packageName ?? packageName) === packageName &&
        (q.get('type') === '1' || !v.subscription) &&
        Number(v.voidedTimeMillis) >= start &&
        Number(v.voidedTimeMillis) <= end,
    )
    .sort((x, y) => Number(x.voidedTimeMillis) - Number(y.voidedTimeMillis));
  const offset = q.get('token') ? Number(Buffer.from(q.get('token')!, 'base64url').toString('utf8')) : 0;
  const page = all
    .slice(offset, offset + max)
    .map(({ subscription: _s, packageName: _p, ...v }) => ({ kind: 'androidpublisher#voidedPurchase', ...v }));
  const next = offset + max < all.length ? Buffer.from(String(offset + max)).toString('base64url') : undefined;
  return {
    body: {
      ...(page.length ? { voidedPurchases: page } : {}),
      ...(next ? { tokenPagination: { nextPageToken: next } } : {}),
      pageInfo: { totalResults: page.length, resultPerPage: max, startIndex: offset },
    },
  };
}

export async function startGoogleStub(): Promise<GoogleStub> {
  const stub: GoogleStub = {
    url: '',
    tokenUrl: '',
    calls: [],
    failWith: null,
    delayMs: 0,
    expect: null,
    subscriptions: new Map(),
    products: new Map(),
    voided: [],
    tokensIssued: 0,
    close: () => Promise.resolve(),
  };
  const tokens = new Set<string>();
  const server: Server = createServer((req, res) => {
    void readText(req).then(async (text) => {
      if (stub.delayMs && req.url?.startsWith('/androidpublisher/')) await new Promise((r) => setTimeout(r, stub.delayMs));
      const url = new URL(req.url ?? '/', 'http://stub');
      const answer = (status: number, body?: unknown) => {
        stub.calls.push({ method: req.method ?? '', path: url.pathname, status, query: url.search });
        res.statusCode = status;
        res.setHeader('content-type', 'application/json; charset=UTF-8');
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(text);
        if (
          form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' ||
          !stub.expect ||
          !assertionValid(form.get('assertion') ?? '', stub.expect)
        ) {
          return answer(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        }
        const token = `ya29.${randomBytes(12).toString('hex')}`;
        tokens.add(token);
        stub.tokensIssued += 1;
        return answer(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      const m = /^\/androidpublisher\/v3\/applications\/([^/]+)\/(.+)$/.exec(url.pathname);
      if (req.method !== 'GET' || !m) return answer(404, googleError(404, 'Not found', 'notFound'));
      if (stub.failWith) return answer(stub.failWith, googleError(stub.failWith, 'Backend Error', 'backendError'));
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7)))
        return answer(401, googleError(401, 'Invalid Credentials', 'authError'));
      if (decodeURIComponent(m[1]!) !== stub.expect?.packageName)
        return answer(404, googleError(404, 'No application was found for the given package name.', 'applicationNotFound'));
      const rest = m[2]!;
      if (rest === 'reviews') return answer(200, { reviews: [] });
      const sub = /^purchases\/subscriptionsv2\/tokens\/([^/]+)$/.exec(rest);
      if (sub) {
        const found = stub.subscriptions.get(decodeURIComponent(sub[1]!));
        return found
          ? answer(200, { kind: 'androidpublisher#subscriptionPurchaseV2', ...found })
          : answer(400, googleError(400, 'Invalid Value', 'invalid'));
      }
      const product = /^purchases\/products\/([^/]+)\/tokens\/([^/]+)$/.exec(rest);
      if (product) {
        const found = stub.products.get(`${decodeURIComponent(product[1]!)}/${decodeURIComponent(product[2]!)}`);
        return found
          ? answer(200, { kind: 'androidpublisher#productPurchase', ...found })
          : answer(400, googleError(400, 'Invalid Value', 'invalid'));
      }
      if (rest === 'purchases/voidedpurchases') {
        const listed = listVoided(stub, decodeURIComponent(m[1]!), url.searchParams);
        return 'error' in listed ? answer(400, googleError(400, listed.error, 'invalid')) : answer(200, listed.body);
      }
      return answer(404, googleError(404, 'Not found', 'notFound'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.url = `${base}/`;
  stub.tokenUrl = `${base}/token`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
