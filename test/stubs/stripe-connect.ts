// Stripe Connect, for the local Stripe stub (test/stubs/stripe.ts routes these paths here), in Stripe's wire format:
// `POST /v1/accounts` (Express, capabilities, tos_acceptance), `GET /v1/accounts/{id}`, `POST /v1/account_links`
// (a single-use onboarding URL on the stub), `POST /v1/transfers` honouring `Idempotency-Key` as Stripe does (the
// same key answers the first response again) and refusing with `balance_insufficient` beyond the available balance,
// `GET /v1/transfers?transfer_group=` (a list object), and `GET /v1/balance` (available and pending USD, set by the
// test). The test acts as the creator finishing onboarding (`completeOnboarding`) and as Stripe reversing a transfer.
// `GET /v1/balance_transactions` lists what moved the balance, newest first (`limit`, `starting_after`): a charge the
// test records (`charge`: amount, Stripe's processing fee, net), each transfer and each transfer reversal.
import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface StubAccount {
  id: string;
  object: 'account';
  type: 'express';
  country: string;
  email: string | null;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  capabilities: { transfers: 'inactive' | 'pending' | 'active' };
  requirements: { currently_due: string[]; past_due: string[]; eventually_due: string[]; disabled_reason: string | null };
  tos_acceptance: { service_agreement: string };
  metadata: Record<string, string>;
}
export interface StubTransfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  reversed: boolean;
  currency: string;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  created: number;
}
export interface StubBalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  fee: number;
  net: number;
  currency: string;
  type: 'charge' | 'transfer' | 'transfer_refund';
  status: 'available' | 'pending';
  source: string | null;
  available_on: number;
  created: number;
}
export interface StubAccountLink {
  object: 'account_link';
  url: string;
  account: string;
  refresh_url: string;
  return_url: string;
  type: string;
  expires_at: number;
}

export interface ConnectStub {
  accounts: Map<string, StubAccount>;
  accountLinks: StubAccountLink[];
  transfers: Map<string, StubTransfer>;
  /** Every `Idempotency-Key` of a `POST /v1/transfers`, in order (repeats included). */
  transferKeys: string[];
  /** The platform's USD balance in cents. */
  balance: { available: number; pending: number };
  /** Lose this many transfer answers after creating the transfer (the connection drops). */
  dropTransferReplies: number;
  /** Stripe takes this long to answer a transfer (a kill can land while one is in flight). */
  transferDelayMs: number;
  /** `available_on` (Unix seconds) of every charge's balance transaction, read through `GET /v1/payment_intents/{id}`. */
  fundsAvailableOn: number;
  /** The creator finished onboarding: transfers active, payouts enabled, nothing due. */
  completeOnboarding(accountId: string): StubAccount;
  /** Stripe reverses the whole transfer: the money is back in the platform's available balance. */
  reverseTransfer(transferId: string): StubTransfer;
  /** What moved the platform balance, oldest first (Stripe lists them newest first). */
  balanceTransactions: StubBalanceTransaction[];
  /** A customer paid `amount` cents: Stripe keeps `fee` and makes the rest available. */
  charge(amount: number, fee: number): StubBalanceTransaction;
}

type Send = (status: number, body: unknown) => void;
type Form = () => Promise<URLSearchParams>;

export function createConnectStub(origin: () => string, metadataOf: (form: URLSearchParams) => Record<string, string>) {
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const replies = new Map<string, { status: number; body: unknown }>();
  const state: ConnectStub = {
    accounts: new Map(),
    accountLinks: [],
    transfers: new Map(),
    transferKeys: [],
    balance: { available: 0, pending: 0 },
    dropTransferReplies: 0,
    transferDelayMs: 0,
    fundsAvailableOn: Math.floor(Date.now() / 1000) + 2 * 86_400,
    completeOnboarding(accountId) {
      const a = state.accounts.get(accountId)!;
      return Object.assign(a, {
        payouts_enabled: true,
        capabilities: { transfers: 'active' },
        requirements: { currently_due: [], past_due: [], eventually_due: [], disabled_reason: null },
      });
    },
    reverseTransfer(transferId) {
      const tr = state.transfers.get(transferId)!;
      state.balance.available += tr.amount - tr.amount_reversed;
      movement('transfer_refund', tr.amount - tr.amount_reversed, 0, tr.id);
      return Object.assign(tr, { amount_reversed: tr.amount, reversed: true });
    },
    balanceTransactions: [],
    charge(amount, fee) {
      state.balance.available += amount - fee;
      return movement('charge', amount, fee, id('ch'));
    },
  };
  function movement(type: StubBalanceTransaction['type'], amount: number, fee: number, source: string): StubBalanceTransaction {
    const now = Math.floor(Date.now() / 1000);
    const txn: StubBalanceTransaction = {
      id: id('txn'),
      object: 'balance_transaction',
      amount,
      fee,
      net: amount - fee,
      currency: 'usd',
      type,
      status: 'available',
      source,
      available_on: now,
      created: now,
    };
    state.balanceTransactions.push(txn);
    return txn;
  }
  const missing = (what: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  });

  function createTransfer(form: URLSearchParams): { status: number; body: unknown } {
    const amount = Number(form.get('amount'));
    const destination = form.get('destination') ?? '';
    if (!Number.isInteger(amount) || amount <= 0)
      return { status: 400, body: { error: { type: 'invalid_request_error', param: 'amount', message: 'Invalid integer: amount' } } };
    const account = state.accounts.get(destination);
    if (!account)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'destination',
            message: `No such destination: '${destination}'`,
          },
        },
      };
    if (account.capabilities.transfers !== 'active') {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            message: 'Your destination account needs to have at least one of the following capabilities enabled: transfers',
          },
        },
      };
    }
    if (amount > state.balance.available) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'balance_insufficient',
            message: 'You have insufficient available funds in your Stripe account.',
          },
        },
      };
    }
    state.balance.available -= amount;
    const tr: StubTransfer = {
      id: id('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      reversed: false,
      currency: form.get('currency') ?? 'usd',
      destination,
      transfer_group: form.get('transfer_group'),
      metadata: metadataOf(form),
      created: Math.floor(Date.now() / 1000),
    };
    state.transfers.set(tr.id, tr);
    movement('transfer', -amount, 0, tr.id);
    return { status: 200, body: tr };
  }

  /** Answers the request when it is a Connect path; false otherwise. */
  async function route(req: IncomingMessage, path: string, query: URLSearchParams, readForm: Form, send: Send): Promise<boolean> {
    if (req.method === 'POST' && path === '/v1/accounts') {
      const form = await readForm();
      const account: StubAccount = {
        id: id('acct'),
        object: 'account',
        type: 'express',
        country: form.get('country') ?? 'US',
        email: form.get('email'),
        charges_enabled: false,
        payouts_enabled: false,
        capabilities: { transfers: form.get('capabilities[transfers][requested]') === 'true' ? 'inactive' : 'inactive' },
        requirements: {
          currently_due: ['external_account', 'tos_acceptance.date'],
          past_due: [],
          eventually_due: [],
          disabled_reason: 'requirements.past_due',
        },
        tos_acceptance: { service_agreement: form.get('tos_acceptance[service_agreement]') ?? 'full' },
        metadata: metadataOf(form),
      };
      state.accounts.set(account.id, account);
      send(200, account);
      return true;
    }
    if (req.method === 'GET' && path.startsWith('/v1/accounts/')) {
      const account = state.accounts.get(path.slice('/v1/accounts/'.length));
      const r = account ? { status: 200, body: account } : missing('account');
      send(r.status, r.body);
      return true;
    }
    if (req.method === 'POST' && path === '/v1/account_links') {
      const form = await readForm();
      if (!state.accounts.has(form.get('account') ?? '')) {
        send(400, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'account', message: 'No such account' } });
        return true;
      }
      const link: StubAccountLink = {
        object: 'account_link',
        url: `${origin()}/connect/onboarding/${id('link')}`,
        account: form.get('account')!,
        refresh_url: form.get('refresh_url') ?? '',
        return_url: form.get('return_url') ?? '',
        type: form.get('type') ?? '',
        expires_at: Math.floor(Date.now() / 1000) + 300,
      };
      state.accountLinks.push(link);
      send(200, link);
      return true;
    }
    if (req.method === 'POST' && path === '/v1/transfers') {
      const key = String(req.headers['idempotency-key'] ?? '');
      state.transferKeys.push(key);
      const form = await readForm();
      if (state.transferDelayMs > 0) await new Promise((r) => setTimeout(r, state.transferDelayMs));
      const replay = key ? replies.get(key) : undefined;
      if (replay) {
        send(replay.status, replay.body);
        return true;
      }
      const reply = createTransfer(form);
      if (key) replies.set(key, reply);
      if (state.dropTransferReplies > 0) {
        state.dropTransferReplies -= 1;
        req.socket.destroy();
        return true;
      }
      send(reply.status, reply.body);
      return true;
    }
    if (req.method === 'GET' && path === '/v1/transfers') {
      const group = query.get('transfer_group');
      const data = [...state.transfers.values()].filter((tr) => !group || tr.transfer_group === group).reverse();
      send(200, { object: 'list', data, has_more: false, url: '/v1/transfers' });
      return true;
    }
    if (
      req.method === 'GET' &&
      path.startsWith('/v1/payment_intents/') &&
      [...query].some(([k, v]) => k.startsWith('expand[') && v === 'latest_charge.balance_transaction')
    ) {
      const pi = path.slice('/v1/payment_intents/'.length);
      send(200, {
        id: pi,
        object: 'payment_intent',
        status: 'succeeded',
        latest_charge: {
          id: `ch_${pi}`,
          object: 'charge',
          balance_transaction: { id: `txn_${pi}`, object: 'balance_transaction', available_on: state.fundsAvailableOn, status: 'pending' },
        },
      });
      return true;
    }
    if (req.method === 'GET' && path === '/v1/balance_transactions') {
      // Newest first, a page of `limit` (default 10, at most 100) after `starting_after`, as Stripe lists.
      const all = [...state.balanceTransactions].reverse();
      const after = query.get('starting_after');
      const from = after ? all.findIndex((x) => x.id === after) + 1 : 0;
      const limit = Math.min(100, Number(query.get('limit') ?? 10));
      const data = all.slice(from, from + limit);
      send(200, { object: 'list', data, has_more: from + limit < all.length, url: '/v1/balance_transactions' });
      return true;
    }
    if (req.method === 'GET' && path === '/v1/balance') {
      send(200, {
        object: 'balance',
        livemode: false,
        available: [{ amount: state.balance.available, currency: 'usd' }],
        pending: [{ amount: state.balance.pending, currency: 'usd' }],
      });
      return true;
    }
    return false;
  }
  return { state, route };
}
