// The exactness checks that end the store-notification drill (test/drills/store-notification-mix.test.ts): every
// notification answered 200 only once kept, each taken in once and normalised; every purchase event once per
// idempotency key; each paid period one commission of the exact amount, each refund one reversal of exactly that
// period's commission, each reversed refund one restoring earn; every conversion attributed to the code its user
// entered; the wallet ledger exact (test/helpers/books.ts).
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { idempotencyKey } from '../../lib/purchase-event.js';
import { assertWalletExact } from './books.js';
import { RESERVE_PER_PAID_EVENT } from './provider.js';
import type { StoreAccount } from './store-direct.js';
import { APPLE_SOURCE, type ExpectedEvent, type StoreMix, type StoreSender } from './store-mix.js';

/** $9.99 at the campaign's 30 %, and the platform's 10 % fee on it (RESERVE_PER_PAID_EVENT is their sum). */
const COMMISSION_MICROS = 3_000_000;
const FEE_MICROS = RESERVE_PER_PAID_EVENT - COMMISSION_MICROS;
const PAID = new Set(['INITIAL_PURCHASE', 'RENEWAL']);

export interface MixFigures {
  sends: number;
  notifications: number;
  events: number;
  paid: number;
  refunds: number;
  restores: number;
  sandbox: number;
  statuses: ReturnType<StoreSender['statusCounts']>;
}

const label = (e: { type: string; transactionId: string | null }) => `${e.type} ${e.transactionId}`;

/** Waits until nothing is left to do: every kept notification normalised, no conversion event waiting in the inbox. */
export async function waitForStoreDrain(db: Knex, appId: string, timeoutMs: number): Promise<{ unnormalised: number; waiting: number }> {
  const deadline = Date.now() + timeoutMs;
  const left = async () => {
    const raw = await db('raw_intake').where({ app_id: appId }).whereNull('normalised_at').count<{ count: string }[]>('* as count').first();
    const inbox = await db('purchase_inbox').where({ app_id: appId, status: 'waiting' }).count<{ count: string }[]>('* as count').first();
    return { unnormalised: Number(raw?.count), waiting: Number(inbox?.count) };
  };
  for (let now = await left(); ; now = await left()) {
    if ((now.unnormalised === 0 && now.waiting === 0) || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function assertStoreMixExact(
  t: ExecutionContext,
  db: Knex,
  a: StoreAccount,
  mix: StoreMix,
  sender: StoreSender,
): Promise<MixFigures> {
  // Intake: nothing answered 500; everything sent was taken in, answered 200 only once kept, and new only once.
  const statuses = sender.statusCounts();
  t.falsy(statuses.notifications['500'] ?? statuses.reports['500'], `no answer may be 500: ${JSON.stringify(statuses)}`);
  t.deepEqual(
    sender.notifications.filter((d) => !d.acknowledged).map((d) => `${d.type} ${d.uuid}`),
    [],
    'every notification answered 200 in the end',
  );
  t.deepEqual(
    sender.reports.filter((d) => !d.acknowledged).map((d) => d.userId),
    [],
    'every app report answered 200 in the end',
  );
  t.deepEqual(
    sender.notifications.filter((d) => d.acknowledged && !d.keptWhenAnswered).map((d) => d.uuid),
    [],
    'a notification is answered 200 only once it is kept',
  );
  const sent = mix.subscribers.flatMap((s) => s.steps.map((n) => n.uuid));
  t.true(sender.notifications.length >= 2 * sent.length, 'every notification delivered at least twice');
  const answeredNew = sender.notifications.filter((d) => d.duplicate === false).map((d) => d.uuid);
  t.is(new Set(answeredNew).size, answeredNew.length, 'no notification answered as new twice');
  const raw = await db('raw_intake')
    .where({ app_id: a.app_id, source: APPLE_SOURCE })
    .select<{ external_id: string; normalised_at: Date | null }[]>('external_id', 'normalised_at');
  const kept = new Set(raw.map((r) => r.external_id));
  t.deepEqual(
    sent.filter((uuid) => !kept.has(uuid)),
    [],
    'every notification kept',
  );
  t.is(raw.length, sent.length + 1, "each notification kept once (and the green-check's TEST)");
  t.deepEqual(
    raw.filter((r) => !r.normalised_at).map((r) => r.external_id),
    [],
    'nothing left unnormalised in raw_intake',
  );

  // The event log: exactly the expected events, once per idempotency key, all processed without error.
  const expected = mix.subscribers.flatMap((s) => s.events);
  const key = (e: Pick<ExpectedEvent, 'type' | 'transactionId' | 'eventTimestampMs'>) => idempotencyKey(a.app_id, e);
  const rows = await db('purchase_events').where('app_id', a.app_id).select<
    {
      id: string;
      event_type: string;
      transaction_id: string;
      event_timestamp_ms: string;
      environment: string;
      processing_status: string;
      error: string | null;
    }[]
  >('id', 'event_type', 'transaction_id', 'event_timestamp_ms', 'environment', 'processing_status', 'error');
  const recorded = rows.map((r) => ({
    ...r,
    key: key({ type: r.event_type, transactionId: r.transaction_id, eventTimestampMs: Number(r.event_timestamp_ms) }),
  }));
  t.deepEqual(
    recorded.map((r) => `${r.key} ${r.environment}`).sort(),
    expected.map((e) => `${key(e)} ${e.environment}`).sort(),
    'every purchase event exists exactly once per idempotency key',
  );
  t.deepEqual(
    recorded
      .filter((r) => r.processing_status !== 'processed' || r.error)
      .map((r) => `${r.event_type} ${r.transaction_id}: ${r.processing_status} ${r.error}`),
    [],
    'every event applied, none failed or refused',
  );

  // Commissions: per event exactly the expected rows, at the exact amounts.
  const commissions = await db('commissions as c')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where('c.app_id', a.app_id)
    .select<
      {
        id: string;
        kind: string;
        commission_micros: string;
        platform_fee_micros: string;
        environment: string;
        reverses_commission_id: string | null;
        type: string;
        transactionId: string;
      }[]
    >(
      'c.id',
      'c.kind',
      'c.commission_micros',
      'c.platform_fee_micros',
      'c.environment',
      'c.reverses_commission_id',
      'p.event_type as type',
      'p.transaction_id as transactionId',
    );
  const row = (kind: string, sign: number, e: { type: string; transactionId: string | null; environment: string }) =>
    `${label(e)} ${e.environment}: ${kind} ${sign * COMMISSION_MICROS} + ${sign * FEE_MICROS}`;
  const wanted = expected.map((e) => row(e.type === 'REFUND' ? 'reversal' : 'earn', e.type === 'REFUND' ? -1 : 1, e));
  t.deepEqual(
    commissions.map((c) => `${label(c)} ${c.environment}: ${c.kind} ${c.commission_micros} + ${c.platform_fee_micros}`).sort(),
    wanted.sort(),
    'each paid period one commission, each refund one reversal, each reversed refund one restore, at the exact amounts',
  );
  const byId = new Map(commissions.map((c) => [c.id, c]));
  const misdirected = commissions
    .filter((c) => c.kind === 'reversal')
    .filter((c) => {
      const reversed = byId.get(c.reverses_commission_id ?? '');
      return reversed?.type !== 'RENEWAL' || reversed.transactionId !== c.transactionId;
    });
  t.deepEqual(
    misdirected.map((c) => label(c)),
    [],
    "each reversal takes back exactly the refunded period's commission",
  );

  // Conversions: one per subscriber, attributed to the code its user entered, three billing cycles.
  const conversions = await db('conversions')
    .where('app_id', a.app_id)
    .select('conversion_key', 'attributed', 'referral_code', 'app_user_id', 'billing_cycles', 'environment');
  const conversionOf = (c: {
    conversion_key: string;
    attributed: boolean;
    referral_code: string | null;
    app_user_id: string | null;
    billing_cycles: number;
    environment: string;
  }) => `${c.conversion_key} ${c.environment} ${c.app_user_id} attributed=${c.attributed} ${c.referral_code} cycles=${c.billing_cycles}`;
  t.deepEqual(
    conversions.map(conversionOf).sort(),
    mix.subscribers
      .map((s) =>
        conversionOf({
          conversion_key: s.originalTransactionId,
          environment: s.environment,
          app_user_id: s.userId,
          attributed: true,
          referral_code: a.creator_code,
          billing_cycles: 3,
        }),
      )
      .sort(),
    'one conversion per subscriber, bound to its user and the code it entered',
  );

  // The wallet: production periods only (sandbox commissions are simulated and move no money).
  const production = expected.filter((e) => e.environment === 'PRODUCTION');
  const count = (events: ExpectedEvent[], types: string[]) => events.filter((e) => types.includes(e.type)).length;
  const held = count(production, [...PAID, 'REFUND_REVERSED']);
  const released = count(production, ['REFUND']);
  await assertWalletExact(t, db, a.org_id, {
    reserves: held,
    releases: released,
    reservedMicros: (held - released) * RESERVE_PER_PAID_EVENT,
  });

  return {
    sends: sender.notifications.reduce((n, d) => n + d.attempts.length, 0) + sender.reports.reduce((n, d) => n + d.attempts.length, 0),
    notifications: sent.length,
    events: expected.length,
    paid: count(expected, [...PAID]),
    refunds: count(expected, ['REFUND']),
    restores: count(expected, ['REFUND_REVERSED']),
    sandbox: mix.subscribers.filter((s) => s.environment === 'SANDBOX').length,
    statuses,
  };
}
