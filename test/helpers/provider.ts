// The subscription provider as fault drills see it: a workload of subscriptions (purchases, renewals, refunds,
// cancellations, redeliveries) sent by concurrent senders, each event retried on anything but 200 along a
// (compressed) retry schedule until it is acknowledged or the schedule gives up, and the checks that end every
// drill: every event applied exactly once, the ledger exact.
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { idempotencyKey, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import { assertWalletExact } from './books.js';
import { subscription, type ProviderBody } from './subprovider-events.js';

/** $9.99 at 30% = 2,997,000 micro-USD commission + 10% platform fee = 3,296,700 reserved per paid event. */
export const RESERVE_PER_PAID_EVENT = 3_300_000;

export interface Workload {
  /** Per subscription, its events in order (a redelivered event appears twice). */
  subscriptions: ProviderBody[][];
  distinct: number;
  paid: number;
  refunds: number;
  expectedReservedMicros: number;
}

/**
 * `count` subscriptions: purchase and two renewals; every 10th refunds its last renewal, every 4th (else) is
 * cancelled; about 10% of sends are redeliveries of the event just sent. `paidOnly` leaves refunds and cancellations out.
 */
export function purchaseWorkload(count: number, code: string, tag = randomBytes(3).toString('hex')): Workload {
  const subscriptions = Array.from({ length: count }, (_, i) => {
    const sub = subscription(`drill-${tag}-${i}`, code);
    const events = [sub('initial_purchase'), sub('renewal'), sub('renewal')];
    if (i % 10 === 0) events.push(sub('refund', { transaction_id: events[2]!.event.transaction_id, price: -9.99 }));
    else if (i % 4 === 0) events.push(sub('cancellation'));
    return events.flatMap((e, k) => ((i * 7 + k) % 10 === 0 ? [e, e] : [e]));
  });
  let distinct = 0;
  let paid = 0;
  let refunds = 0;
  for (const events of subscriptions) {
    const unique = [...new Map(events.map((e) => [e.event.id, e])).values()];
    distinct += unique.length;
    paid += unique.filter((e) => ['INITIAL_PURCHASE', 'RENEWAL'].includes(e.event.type)).length;
    refunds += unique.filter((e) => e.event.type === 'REFUND').length;
  }
  return { subscriptions, distinct, paid, refunds, expectedReservedMicros: (paid - refunds) * RESERVE_PER_PAID_EVENT };
}

/** Enough test funds that no drill runs the wallet dry. */
export async function fundGenerously(db: Knex, orgId: string): Promise<void> {
  await appendLedgerEntry(db, {
    orgId,
    entryType: 'topup',
    balanceDeltaMicros: 100_000_000_000_000,
    reservedDeltaMicros: 0,
    idempotencyKey: `topup:drill:${orgId}`,
  });
}

export interface Attempt {
  status: number | 'network';
  ms: number;
  text?: string;
}
export interface Delivery {
  body: ProviderBody;
  attempts: Attempt[];
  acknowledged: boolean;
  eventId?: string;
  error?: string;
}

export interface ProviderOptions {
  /** Where the webhook is (read at every attempt: a restarted API may move). */
  baseUrl: () => string;
  appId: string;
  secret: string;
  /** Pauses before each retry; when they run out the provider gives up. */
  retryScheduleMs: number[];
  /** The provider's webhook timeout. */
  timeoutMs?: number;
  /** Stop retrying an event this long after its first attempt (the provider's 24 hours, compressed). */
  giveUpAfterMs?: number;
}

/** The provider's real schedule (1 min, 5 min, 30 min, 2 h, 8 h, then stop) compressed by `factor`. */
export function compressedSchedule(factor: number): number[] {
  return [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000].map((ms) => Math.max(50, Math.round(ms / factor)));
}

/**
 * A sender's retries: `send` again after anything but a 200 (refused, reset or timed-out connections too), pausing
 * `pauseAfter(failures so far)` each time, until a 200 (its answer's text is returned) or the pause is undefined
 * (the sender gives up: undefined). Every attempt is recorded in `attempts`.
 */
export async function sendUntilAcknowledged(
  send: () => Promise<Response>,
  attempts: Attempt[],
  pauseAfter: (failures: number) => number | undefined,
): Promise<string | undefined> {
  for (let i = 0; ; i++) {
    const started = Date.now();
    try {
      const res = await send();
      const text = await res.text();
      attempts.push({ status: res.status, ms: Date.now() - started, text: res.status === 200 ? undefined : text.slice(0, 300) });
      if (res.status === 200) return text;
    } catch {
      attempts.push({ status: 'network', ms: Date.now() - started });
    }
    const pause = pauseAfter(i);
    if (pause === undefined) return undefined;
    await new Promise((r) => setTimeout(r, pause));
  }
}

export class Provider {
  readonly deliveries: Delivery[] = [];
  constructor(private readonly opts: ProviderOptions) {}

  /** Sends one event and retries it along the schedule until a 200 or the schedule gives up. */
  async deliver(body: ProviderBody): Promise<Delivery> {
    const delivery: Delivery = { body, attempts: [], acknowledged: false };
    this.deliveries.push(delivery);
    const first = Date.now();
    const text = await sendUntilAcknowledged(
      () =>
        fetch(`${this.opts.baseUrl()}/api/webhooks/subprovider/${this.opts.appId}`, {
          method: 'POST',
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
          headers: { authorization: `Bearer ${this.opts.secret}`, 'content-type': 'application/json' },
        }),
      delivery.attempts,
      (i) => {
        const pause = this.opts.retryScheduleMs[i];
        if (pause === undefined) return undefined;
        return this.opts.giveUpAfterMs !== undefined && Date.now() + pause - first > this.opts.giveUpAfterMs ? undefined : pause;
      },
    );
    if (text !== undefined) {
      const answer = JSON.parse(text) as { event_id: string; error?: string };
      Object.assign(delivery, { acknowledged: true, eventId: answer.event_id, error: answer.error });
    }
    return delivery;
  }

  /** `senders` concurrent senders; each takes a subscription and sends its events in order. */
  async run(workload: Workload, senders: number, onProgress?: (acknowledged: number) => void): Promise<void> {
    const queue = [...workload.subscriptions];
    let acknowledged = 0;
    await Promise.all(
      Array.from({ length: senders }, async () => {
        for (let events = queue.shift(); events; events = queue.shift()) {
          for (const e of events) {
            const d = await this.deliver(e);
            if (d.acknowledged) onProgress?.(++acknowledged);
          }
        }
      }),
    );
  }

  /** Every answer other than 200 by status ('network': refused, reset or timed out). */
  statusCounts(): Record<string, number> {
    return countStatuses(this.deliveries);
  }
}

/** The attempts of some deliveries counted by their answer's status ('network': refused, reset or timed out). */
export function countStatuses(deliveries: { attempts: Attempt[] }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of deliveries) for (const a of d.attempts) counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
  return counts;
}

/** Resolves once `n` acknowledgements have been counted by `Provider.run`'s progress callback. */
export function progressGate(): { onProgress: (n: number) => void; reached: (n: number) => Promise<void> } {
  let current = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    onProgress: (n) => {
      current = n;
      for (const w of waiters.filter((x) => x.n <= current)) {
        w.resolve();
        waiters.splice(waiters.indexOf(w), 1);
      }
    },
    reached: (n) =>
      current >= n
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiters.push({ n, resolve });
          }),
  };
}

export interface DrillFigures {
  events: number;
  distinct: number;
  paid: number;
  refunds: number;
  reservedMicros: number;
  statuses: Record<string, number>;
}

/**
 * The end of every drill: no 500 answered; the inbox drained; every event of the workload recorded exactly once
 * (each acknowledged answer naming its row, redeliveries the same one), none failed; one earn per paid event and one
 * reversal per refund; the ledger's reserved total exact, its running totals equal to its sums and its identity
 * holding (test/helpers/books.ts).
 */
export async function assertExactlyOnce(
  t: ExecutionContext,
  db: Knex,
  seed: { app_id: string; org_id: string },
  workload: Workload,
  provider: Provider,
  opts: { drainTimeoutMs?: number } = {},
): Promise<DrillFigures> {
  const statuses = provider.statusCounts();
  t.falsy(statuses['500'], `no webhook answer may be 500: ${JSON.stringify(statuses)}`);
  const deadline = Date.now() + (opts.drainTimeoutMs ?? 120_000);
  const waiting = () =>
    db('purchase_inbox')
      .where({ app_id: seed.app_id, status: 'waiting' })
      .count<{ count: string }[]>('* as count')
      .first()
      .then((r) => Number(r?.count));
  while ((await waiting()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  t.is(await waiting(), 0, 'the inbox is drained');

  const rows = await db('purchase_events').where('app_id', seed.app_id).select<
    {
      id: string;
      event_type: string;
      transaction_id: string | null;
      event_timestamp_ms: number;
      processing_status: string;
      error: string | null;
    }[]
  >('id', 'event_type', 'transaction_id', 'event_timestamp_ms', 'processing_status', 'error');
  const byKey = new Map(
    rows.map((r) => [
      idempotencyKey(seed.app_id, { type: r.event_type, transactionId: r.transaction_id, eventTimestampMs: r.event_timestamp_ms }),
      r,
    ]),
  );
  t.is(rows.length, workload.distinct, 'every distinct event recorded exactly once');
  t.deepEqual(
    rows.filter((r) => r.processing_status !== 'processed').map((r) => `${r.event_type}:${r.processing_status}:${r.error}`),
    [],
    'every event processed: none failed, none left half-done',
  );
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const events of workload.subscriptions) {
    for (const body of events) {
      const row = byKey.get(idempotencyKey(seed.app_id, normalizeSubproviderEvent(body, 0)));
      if (!row) missing.push(`${body.event.type} ${body.event.transaction_id}`);
    }
  }
  for (const d of provider.deliveries) {
    if (!d.acknowledged) continue;
    const row = byKey.get(idempotencyKey(seed.app_id, normalizeSubproviderEvent(d.body, 0)));
    if (row?.id !== d.eventId) mismatched.push(`${d.body.event.type}: answered ${d.eventId}, recorded ${row?.id}`);
  }
  t.deepEqual(missing, [], 'every event of the workload is recorded');
  t.deepEqual(mismatched, [], 'every acknowledgement names the one recorded row (redeliveries too)');

  const commissions = await db('commissions')
    .where('app_id', seed.app_id)
    .select('kind')
    .count<{ kind: string; count: string }[]>('* as count')
    .groupBy('kind');
  const count = (kind: string) => Number(commissions.find((c) => c.kind === kind)?.count ?? 0);
  t.is(count('earn'), workload.paid, 'one commission per paid event');
  t.is(count('reversal'), workload.refunds, 'one reversal per refund');
  const reservedMicros = await assertWalletExact(t, db, seed.org_id, {
    reserves: workload.paid,
    releases: workload.refunds,
    reservedMicros: workload.expectedReservedMicros,
  });
  const sent = provider.deliveries.reduce((n, d) => n + d.attempts.length, 0);
  return { events: sent, distinct: rows.length, paid: workload.paid, refunds: workload.refunds, reservedMicros, statuses };
}
