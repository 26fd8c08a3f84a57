// A local stand-in for the subscription provider's REST API (v1 promotional grants), speaking its wire format:
// Bearer secret key, JSON body, `{"code", "message"}` errors. Records what it received.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall { method: string; path: string; authorization: string | undefined; body: unknown }

export interface SubproviderStub { url: string; calls: RecordedCall[]; failWith: number | null; close(): Promise<void> }

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startSubproviderStub(secretKey: string): Promise<SubproviderStub> {
  const stub: SubproviderStub = { url: '', calls: [], failWith: null, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    void readJson(req).then((body) => {
      stub.calls.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        res.statusCode = 401;
        res.end(JSON.stringify({ code: 7225, message: 'Invalid API key.' }));
      } else if (stub.failWith) {
        res.statusCode = stub.failWith;
        res.end(JSON.stringify({ code: 7110, message: 'Internal server error.' }));
      } else if (req.method === 'POST' && /^\/v1\/subscribers\/[^/]+\/entitlements\/[^/]+\/promotional$/.test(req.url ?? '')) {
        res.statusCode = 201;
        res.end(JSON.stringify({ subscriber: { entitlements: {} } }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ code: 7259, message: 'Not found.' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
