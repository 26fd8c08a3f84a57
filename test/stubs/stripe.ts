// A local stand-in for Stripe, speaking its wire format: `POST /v1/checkout/sessions` with a form-encoded body and
// the secret key as Bearer, answering a Checkout Session object; a pay page URL on the stub; and, acting as Stripe,
// events signed the way Stripe signs them (`Stripe-Signature: t=...,v1=HMAC-SHA256`, made by the stripe package's
// own test helper) for the test to deliver to our webhook.
// Auto-recharge: `POST /v1/customers`, Checkout Sessions in `mode=setup` (each with its SetupIntent, completed by
// the test as the human saving a card), `GET /v1/setup_intents/{id}`, `GET /v1/payment_methods/{id}` (Stripe's test
// methods `pm_card_visa` and `pm_card_chargeDeclined`), and `POST /v1/payment_intents` honouring `Idempotency-Key`
// the way Stripe does (the same key answers the first response again; a declined card is a 402 card_error).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { createConnectStub, type ConnectStub } from './stripe-connect.js';

export interface StubSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string;
  status: string;
  payment_status: string;
  currency: string;
  amount_total: number | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  customer: string | null;
  setup_intent: string | null;
}

export interface StubSetupIntent {
  id: string;
  object: 'setup_intent';
  status: string;
  customer: string | null;
  payment_method: string | null;
  usage: 'off_session';
  metadata: Record<string, string>;
}
export interface StubPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  customer: string | null;
  payment_method: string;
  metadata: Record<string, string>;
  off_session: boolean;
  confirm: boolean;
  last_payment_error: { message: string; code: string } | null;
}

const CARDS: Record<string, { brand: string; last4: string; declines: boolean }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', declines: false },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', declines: true },
};

export interface StripeStub {
  url: string;
  sessions: Map<string, StubSession>;
  authorizations: string[];
  setupIntents: Map<string, StubSetupIntent>;
  paymentIntents: Map<string, StubPaymentIntent>;
  /** Every `Idempotency-Key` of a `POST /v1/payment_intents`, in order (repeats included). */
  intentKeys: string[];
  /** How a new PaymentIntent that is not declined ends: `succeeded` at once, or `processing` (the webhook settles it). */
  intentStatus: 'succeeded' | 'processing';
  /** Lose this many PaymentIntent answers after creating the intent (the connection drops): the caller must retry with the same key. */
  dropIntentReplies: number;
  /** The human saves `paymentMethod` on the setup session's page: its SetupIntent succeeds. */
  completeSetup(sessionId: string, paymentMethod?: string): StubSession;
  /** A signed event about one session, as Stripe would POST it to the webhook endpoint. */
  signedEvent(type: string, sessionId: string, overrides?: Partial<StubSession>, secret?: string): { payload: string; signature: string };
  /** A signed event carrying any object (a PaymentIntent); `account` makes it a Connect event of that account. */
  signedObjectEvent(type: string, object: object, secret?: string, account?: string): { payload: string; signature: string };
  /** Stripe Connect: accounts, account links, transfers, the platform balance (test/stubs/stripe-connect.ts). */
  connect: ConnectStub;
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
  const setupIntents = new Map<string, StubSetupIntent>();
  const paymentIntents = new Map<string, StubPaymentIntent>();
  const intentKeys: string[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  let origin = '';
  const connect = createConnectStub(
    () => origin,
    (form) => metadataOf(form),
  );
  const options: Pick<StripeStub, 'intentStatus' | 'dropIntentReplies'> = { intentStatus: 'succeeded', dropIntentReplies: 0 };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      authorizations.push(req.headers.authorization ?? '');
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const path = (req.url ?? '').split('?')[0]!;
      if (await connect.route(req, path, new URL(req.url ?? '/', 'http://stub').searchParams, () => readForm(req), send)) return;
      if (req.method === 'POST' && path === '/v1/customers') {
        const form = await readForm(req);
        return send(200, { id: id('cus'), object: 'customer', metadata: metadataOf(form), description: form.get('description') });
      }
      if (req.method === 'GET' && path.startsWith('/v1/setup_intents/')) {
        const intent = setupIntents.get(path.slice('/v1/setup_intents/'.length));
        return intent
          ? send(200, intent)
          : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such setupintent' } });
      }
      if (req.method === 'GET' && path.startsWith('/v1/payment_methods/')) {
        const pm = path.slice('/v1/payment_methods/'.length);
        const card = CARDS[pm];
        return card
          ? send(200, {
              id: pm,
              object: 'payment_method',
              type: 'card',
              card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034 },
            })
          : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod' } });
      }
      if (req.method === 'POST' && path === '/v1/payment_intents') {
        const key = String(req.headers['idempotency-key'] ?? '');
        intentKeys.push(key);
        const form = await readForm(req);
        const replay = key ? replies.get(key) : undefined;
        if (replay) return send(replay.status, replay.body);
        const reply = createIntent(form);
        if (key) replies.set(key, reply);
        if (options.dropIntentReplies > 0) {
          options.dropIntentReplies -= 1;
          return req.socket.destroy();
        }
        return send(reply.status, reply.body);
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const form = await readForm(req);
        if (form.get('mode') === 'setup') return send(200, createSetupSession(form));
        const unit = Number(form.get('line_items[0][price_data][unit_amount]'));
        const quantity = Number(form.get('line_items[0][quantity]') ?? 1);
        if (!Number.isInteger(unit) || unit <= 0)
          return send(400, { error: { type: 'invalid_request_error', message: 'Invalid integer: unit_amount' } });
        const sessionId = id('cs_test');
        const metadata = metadataOf(form);
        const session: StubSession = {
          id: sessionId,
          object: 'checkout.session',
          mode: form.get('mode') ?? 'payment',
          url: `${origin}/pay/${sessionId}`,
          status: 'open',
          payment_status: 'unpaid',
          currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
          amount_total: unit * quantity,
          client_reference_id: form.get('client_reference_id'),
          metadata,
          success_url: form.get('success_url') ?? '',
          cancel_url: form.get('cancel_url') ?? '',
          customer: form.get('customer'),
          setup_intent: null,
        };
        sessions.set(sessionId, session);
        return send(200, session);
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${req.url})` } });
    })();
  });
  function createSetupSession(form: URLSearchParams): StubSession {
    const seti: StubSetupIntent = {
      id: id('seti'),
      object: 'setup_intent',
      status: 'requires_payment_method',
      customer: form.get('customer'),
      payment_method: null,
      usage: 'off_session',
      metadata: metadataOf(form, 'setup_intent_data[metadata]'),
    };
    setupIntents.set(seti.id, seti);
    const sessionId = id('cs_test');
    const session: StubSession = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'setup',
      url: `${origin}/setup/${sessionId}`,
      status: 'open',
      payment_status: 'no_payment_required',
      currency: form.get('currency') ?? 'usd',
      amount_total: null,
      client_reference_id: form.get('client_reference_id'),
      metadata: metadataOf(form),
      success_url: form.get('success_url') ?? '',
      cancel_url: form.get('cancel_url') ?? '',
      customer: form.get('customer'),
      setup_intent: seti.id,
    };
    sessions.set(sessionId, session);
    return session;
  }

  function createIntent(form: URLSearchParams): { status: number; body: unknown } {
    const amount = Number(form.get('amount'));
    const pm = form.get('payment_method') ?? '';
    if (!Number.isInteger(amount) || amount <= 0)
      return { status: 400, body: { error: { type: 'invalid_request_error', param: 'amount', message: 'Invalid integer: amount' } } };
    if (form.get('confirm') !== 'true' || form.get('off_session') !== 'true') {
      return {
        status: 400,
        body: {
          error: { type: 'invalid_request_error', message: 'this stub only charges saved cards: confirm=true and off_session=true' },
        },
      };
    }
    const card = CARDS[pm];
    if (!card)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_method',
            message: `No such PaymentMethod: '${pm}'`,
          },
        },
      };
    const intent: StubPaymentIntent = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: form.get('currency') ?? 'usd',
      status: 'processing',
      customer: form.get('customer'),
      payment_method: pm,
      metadata: metadataOf(form),
      off_session: true,
      confirm: true,
      last_payment_error: null,
    };
    paymentIntents.set(intent.id, intent);
    if (card.declines) {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
      });
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
            payment_intent: intent,
          },
        },
      };
    }
    if (options.intentStatus === 'succeeded') Object.assign(intent, { status: 'succeeded', amount_received: amount });
    return { status: 200, body: intent };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stripe = new Stripe(secretKey);
  const signedObjectEvent = (type: string, object: object, secret = webhookSecret, account?: string) => {
    const payload = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      ...(account ? { account } : {}),
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  };
  return {
    url: origin,
    sessions,
    authorizations,
    setupIntents,
    paymentIntents,
    intentKeys,
    connect: connect.state,
    get intentStatus() {
      return options.intentStatus;
    },
    set intentStatus(status) {
      options.intentStatus = status;
    },
    get dropIntentReplies() {
      return options.dropIntentReplies;
    },
    set dropIntentReplies(n) {
      options.dropIntentReplies = n;
    },
    completeSetup(sessionId, paymentMethod = 'pm_card_visa') {
      const session = sessions.get(sessionId)!;
      Object.assign(setupIntents.get(session.setup_intent!)!, { status: 'succeeded', payment_method: paymentMethod });
      return Object.assign(session, { status: 'complete' });
    },
    signedEvent(type, sessionId, overrides = {}, secret = webhookSecret) {
      return signedObjectEvent(type, { ...sessions.get(sessionId)!, ...overrides }, secret);
    },
    signedObjectEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function metadataOf(form: URLSearchParams, prefix = 'metadata'): Record<string, string> {
  const metadata: Record<string, string> = {};
  const start = `${prefix}[`;
  for (const [k, v] of form)
    if (k.startsWith(start) && k.endsWith(']') && !k.slice(start.length, -1).includes('[')) metadata[k.slice(start.length, -1)] = v;
  return metadata;
}
