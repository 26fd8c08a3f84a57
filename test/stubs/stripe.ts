// A local stand-in for Stripe, speaking its wire format: `POST /v1/checkout/sessions` with a form-encoded body and
// the secret key as Bearer, answering a Checkout Session object; a pay page URL on the stub; and, acting as Stripe,
// events signed the way Stripe signs them (`Stripe-Signature: t=...,v1=HMAC-SHA256`, made by the stripe package's
// own test helper) for the test to deliver to our webhook.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

export interface StubSession {
  id: string; object: 'checkout.session'; mode: string; url: string; status: string; payment_status: string; currency: string;
  amount_total: number; client_reference_id: string | null; metadata: Record<string, string>; success_url: string; cancel_url: string;
}

export interface StripeStub {
  url: string;
  sessions: Map<string, StubSession>;
  authorizations: string[];
  /** A signed event about one session, as Stripe would POST it to the webhook endpoint. */
  signedEvent(type: string, sessionId: string, overrides?: Partial<StubSession>, secret?: string): { payload: string; signature: string };
  close(): Promise<void>;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

export async function startStripeStub(secretKey: string, webhookSecret: string): Promise<StripeStub> {
  const sessions = new Map<string, StubSession>();
  const authorizations: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const send = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      authorizations.push(req.headers.authorization ?? '');
      if (req.headers.authorization !== `Bearer ${secretKey}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const form = await readForm(req);
        const unit = Number(form.get('line_items[0][price_data][unit_amount]'));
        const quantity = Number(form.get('line_items[0][quantity]') ?? 1);
        if (!Number.isInteger(unit) || unit <= 0) return send(400, { error: { type: 'invalid_request_error', message: 'Invalid integer: unit_amount' } });
        const id = `cs_test_${randomBytes(12).toString('hex')}`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of form) { const m = /^metadata\[(\w+)\]$/.exec(k); if (m) metadata[m[1]!] = v; }
        const session: StubSession = {
          id, object: 'checkout.session', mode: form.get('mode') ?? 'payment', url: `${origin}/pay/${id}`, status: 'open', payment_status: 'unpaid',
          currency: form.get('line_items[0][price_data][currency]') ?? 'usd', amount_total: unit * quantity,
          client_reference_id: form.get('client_reference_id'), metadata, success_url: form.get('success_url') ?? '', cancel_url: form.get('cancel_url') ?? '',
        };
        sessions.set(id, session);
        return send(200, session);
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${req.url})` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stripe = new Stripe(secretKey);
  return {
    url: origin, sessions, authorizations,
    signedEvent(type, sessionId, overrides = {}, secret = webhookSecret) {
      const session = { ...sessions.get(sessionId)!, ...overrides };
      const payload = JSON.stringify({
        id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', api_version: '2025-01-01', created: Math.floor(Date.now() / 1000),
        type, data: { object: session }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null },
      });
      return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
