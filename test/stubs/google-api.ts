// A local stand-in for Google's OAuth token endpoint (service-account JWT bearer grant, RS256 assertion verified
// with the expected public key and claims) and the androidpublisher reviews list (checks the issued bearer token and
// the package). `failWith` forces an error status on the androidpublisher call (e.g. 503).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, verify, type KeyObject } from 'node:crypto';

export interface GoogleExpect { publicKey: KeyObject; clientEmail: string; packageName: string }

export interface GoogleStub {
  url: string; tokenUrl: string; calls: { method: string; path: string; status: number }[]; failWith: number | null; expect: GoogleExpect | null; close(): Promise<void>;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function assertionValid(jwt: string, e: GoogleExpect, aud: string): boolean {
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) return false;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, number | string>;
    const now = Date.now() / 1000;
    return header.alg === 'RS256' && verify('sha256', Buffer.from(`${h}.${p}`), e.publicKey, Buffer.from(s, 'base64url'))
      && claims.iss === e.clientEmail && claims.aud === aud && claims.scope === 'https://www.googleapis.com/auth/androidpublisher'
      && Number(claims.iat) <= now + 5 && Number(claims.exp) > now;
  } catch {
    return false;
  }
}

export async function startGoogleStub(): Promise<GoogleStub> {
  const stub: GoogleStub = { url: '', tokenUrl: '', calls: [], failWith: null, expect: null, close: () => Promise.resolve() };
  const tokens = new Set<string>();
  const server: Server = createServer((req, res) => {
    void readText(req).then((text) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const answer = (status: number, body?: unknown) => {
        stub.calls.push({ method: req.method ?? '', path: url.pathname, status });
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(text);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !stub.expect || !assertionValid(form.get('assertion') ?? '', stub.expect, stub.tokenUrl)) {
          answer(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          return;
        }
        const token = `ya29.${randomBytes(12).toString('hex')}`;
        tokens.add(token);
        answer(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
        return;
      }
      const m = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        if (stub.failWith) return answer(stub.failWith, { error: { code: stub.failWith, message: 'Backend Error' } });
        const auth = req.headers.authorization ?? '';
        if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7))) return answer(401, { error: { code: 401, message: 'Invalid Credentials' } });
        if (decodeURIComponent(m[1]!) !== stub.expect?.packageName) return answer(404, { error: { code: 404, message: 'Package not found' } });
        return answer(200, { reviews: [] });
      }
      return answer(404, { error: { code: 404, message: 'Not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.url = `${base}/`;
  stub.tokenUrl = `${base}/token`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
