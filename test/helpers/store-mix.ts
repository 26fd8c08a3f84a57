// The App Store and the app as the store-notification drill sees them (test/drills/store-notification-mix.test.ts):
// a workload of store-direct iOS subscribers, each identified with a creator's code (so a notification binds by
// appAccountToken, docs/store-direct.md "Attribution survives the race"), and what each goes through: the first
// purchase notified AND reported by the app (either order, or both at once), two renewals known only by
// notification, some refunded and some of those reversed, some in the sandbox; every notification redelivered. The
// sender posts like Apple (again on anything but 200, until 200) and like the app's SDK (a report again until 200).
import type { Knex } from 'knex';
import { accountToken } from '@svc/sdk';
import { notificationPayload, signTransaction, transactionPayload } from './apple-signing.js';
import { countStatuses, sendUntilAcknowledged, type Attempt } from './provider.js';
import { APP_APPLE_ID, type StoreAccount, type StoreWorld } from './store-direct.js';

const DAY = 86_400_000;
export const APPLE_SOURCE = 'app_store_notification';

export interface SignedNotification {
  uuid: string;
  type: string;
  signedPayload: string;
  signedDate: number;
}

/** One event the pipeline must hold exactly once (the spec's idempotency key: type, transaction id, timestamp). */
export interface ExpectedEvent {
  type: string;
  transactionId: string;
  eventTimestampMs: number;
  environment: 'PRODUCTION' | 'SANDBOX';
}

export type FirstOrder = 'notified-first' | 'reported-first' | 'together';

export interface Subscriber {
  index: number;
  userId: string;
  environment: 'PRODUCTION' | 'SANDBOX';
  /** The first purchase's transaction id: the conversion's key. */
  originalTransactionId: string;
  order: FirstOrder;
  /** The app's report of the first purchase (POST /api/sdk/purchase). */
  report: { platform: 'ios'; signed_transaction: string; app_user_id: string };
  /** Apple's sends in order, each a month (or the refund's days) after the one before. */
  steps: SignedNotification[];
  events: ExpectedEvent[];
  /** The paid period a refund took back (the first renewal), and whether Apple reversed that refund. */
  refunded: string | null;
  restored: boolean;
}

export interface StoreMix {
  subscribers: Subscriber[];
  notifications: number;
}

/**
 * `count` subscribers: every 5th in the sandbox, every 3rd refunds its first renewal and every 6th has that refund
 * reversed; the first purchase is notified first, reported first or both at once in turn.
 */
export function storeMixWorkload(count: number, world: StoreWorld, a: StoreAccount, tag: string): StoreMix {
  const sign = (payload: Record<string, unknown>) => signTransaction(world.chain, payload);
  const subscribers = Array.from({ length: count }, (_, i): Subscriber => {
    const userId = `mix-${tag}-${i}`;
    const sandbox = i % 5 === 4;
    const environment = sandbox ? 'SANDBOX' : 'PRODUCTION';
    const appleEnvironment = sandbox ? 'Sandbox' : 'Production';
    const start = Date.now() - 75 * DAY;
    const tx = (purchaseDate: number, original?: string) =>
      transactionPayload({
        bundleId: a.bundleId,
        purchaseDate,
        environment: appleEnvironment,
        appAccountToken: accountToken(userId),
        ...(original ? { originalTransactionId: original } : {}),
      });
    const first = tx(start);
    const original = first.transactionId as string;
    const renewals = [tx(start + 30 * DAY, original), tx(start + 60 * DAY, original)];
    const notify = (type: string, transaction: Record<string, unknown>, subtype?: string): SignedNotification => {
      const payload = notificationPayload({
        notificationType: type,
        subtype,
        bundleId: a.bundleId,
        appAppleId: sandbox ? undefined : APP_APPLE_ID,
        environment: appleEnvironment,
        signedTransactionInfo: sign(transaction),
      });
      return { uuid: payload.notificationUUID as string, type, signedPayload: sign(payload), signedDate: payload.signedDate as number };
    };
    const purchase = (t: Record<string, unknown>, type: string): ExpectedEvent => ({
      type,
      transactionId: t.transactionId as string,
      eventTimestampMs: t.purchaseDate as number,
      environment,
    });
    const steps = [notify('SUBSCRIBED', first, 'INITIAL_BUY'), ...renewals.map((r) => notify('DID_RENEW', r))];
    const events = [purchase(first, 'INITIAL_PURCHASE'), ...renewals.map((r) => purchase(r, 'RENEWAL'))];
    const refunded = i % 3 === 0 ? renewals[0]! : undefined;
    const restored = i % 6 === 0;
    if (refunded) {
      const revocationDate = start + 40 * DAY;
      steps.push(notify('REFUND', { ...refunded, revocationDate, revocationReason: 0, signedDate: Date.now() }));
      events.push({ type: 'REFUND', transactionId: refunded.transactionId as string, eventTimestampMs: revocationDate, environment });
    }
    if (refunded && restored) {
      const reversal = notify('REFUND_REVERSED', refunded);
      steps.push(reversal);
      events.push({
        type: 'REFUND_REVERSED',
        transactionId: refunded.transactionId as string,
        eventTimestampMs: reversal.signedDate,
        environment,
      });
    }
    const order: FirstOrder = (['notified-first', 'reported-first', 'together'] as const)[i % 4 === 3 ? 1 : i % 3]!;
    return {
      index: i,
      userId,
      environment,
      originalTransactionId: original,
      order,
      steps,
      events,
      refunded: refunded ? (refunded.transactionId as string) : null,
      restored,
      report: { platform: 'ios', signed_transaction: sign(first), app_user_id: userId },
    };
  });
  return { subscribers, notifications: subscribers.reduce((n, s) => n + s.steps.length, 0) };
}

export interface NotificationDelivery {
  uuid: string;
  type: string;
  attempts: Attempt[];
  acknowledged: boolean;
  /** The answer said `duplicate` (the notification was taken in before). */
  duplicate?: boolean;
  /** The raw row was there when the 200 came back (a 200 is only answered once the notification is kept). */
  keptWhenAnswered?: boolean;
}

export interface ReportDelivery {
  userId: string;
  attempts: Attempt[];
  acknowledged: boolean;
  answer?: Record<string, unknown>;
}

export interface SenderOptions {
  baseUrl: () => string;
  appId: string;
  sdkKey: string;
  db: Knex;
  /** Apple retries for days; the drill stops retrying (and fails) this long after a send's first attempt. */
  giveUpAfterMs: number;
}

/** Apple's retries (1, 12, 24, 48, 72 h) compressed: 100 ms doubling to 2 s, until the give-up time. */
const pauses = (giveUpAt: number) => (i: number) => (Date.now() > giveUpAt ? undefined : Math.min(2000, 100 * 2 ** i));

export class StoreSender {
  readonly notifications: NotificationDelivery[] = [];
  readonly reports: ReportDelivery[] = [];
  constructor(private readonly opts: SenderOptions) {}

  /** Posts the signed notification to the app's endpoint until it is answered 200 (a redelivery is another call). */
  async notify(n: SignedNotification): Promise<NotificationDelivery> {
    const d: NotificationDelivery = { uuid: n.uuid, type: n.type, attempts: [], acknowledged: false };
    this.notifications.push(d);
    const text = await sendUntilAcknowledged(
      () =>
        fetch(`${this.opts.baseUrl()}/api/webhooks/apple/${this.opts.appId}`, {
          method: 'POST',
          body: JSON.stringify({ signedPayload: n.signedPayload }),
          headers: { 'content-type': 'application/json' },
          signal: AbortSignal.timeout(30_000),
        }),
      d.attempts,
      pauses(Date.now() + this.opts.giveUpAfterMs),
    );
    if (text === undefined) return d;
    const kept = await this.opts.db('raw_intake').where({ app_id: this.opts.appId, source: APPLE_SOURCE, external_id: n.uuid }).first('id');
    Object.assign(d, {
      acknowledged: true,
      duplicate: (JSON.parse(text) as { duplicate: boolean }).duplicate,
      keptWhenAnswered: kept !== undefined,
    });
    return d;
  }

  /** The app's report of a purchase, sent again until it is answered 200 (the SDK's outbox). */
  async report(userId: string, body: Subscriber['report']): Promise<ReportDelivery> {
    const d: ReportDelivery = { userId, attempts: [], acknowledged: false };
    this.reports.push(d);
    const text = await sendUntilAcknowledged(
      () =>
        fetch(`${this.opts.baseUrl()}/api/sdk/purchase`, {
          method: 'POST',
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
          headers: { authorization: `Bearer ${this.opts.sdkKey}`, 'content-type': 'application/json' },
        }),
      d.attempts,
      pauses(Date.now() + this.opts.giveUpAfterMs),
    );
    if (text !== undefined) Object.assign(d, { acknowledged: true, answer: JSON.parse(text) as Record<string, unknown> });
    return d;
  }

  /** Until the notification's raw row is normalised (its workflow handed everything over). */
  async normalised(n: SignedNotification, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.opts
        .db('raw_intake')
        .where({ app_id: this.opts.appId, source: APPLE_SOURCE, external_id: n.uuid })
        .first('normalised_at');
      if (row?.normalised_at) return;
      if (Date.now() > deadline)
        throw new Error(`${n.type} notification ${n.uuid} ${row ? 'kept but' : 'not even kept,'} not normalised within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /**
   * One subscriber's life: the first purchase notified and reported (in its order), then each later notification
   * once the one before was normalised (Apple sends them a month or days apart); every third notification is
   * redelivered at once (racing its workflow), and at the end every one again, newest first (Apple's late retries).
   * `onStep` after each notification is normalised.
   */
  async live(s: Subscriber, onStep: () => void, stepTimeoutMs: number): Promise<void> {
    const [first, ...later] = s.steps;
    const notifyFirst = () => this.notify(first!);
    const report = () => this.report(s.userId, s.report);
    if (s.order === 'together') await Promise.all([notifyFirst(), report()]);
    else if (s.order === 'notified-first') {
      await notifyFirst();
      await report();
    } else {
      await report();
      await notifyFirst();
    }
    await this.normalised(first!, stepTimeoutMs);
    onStep();
    for (const [k, n] of later.entries()) {
      await this.notify(n);
      if ((k + s.index) % 3 === 0) await this.notify(n);
      await this.normalised(n, stepTimeoutMs);
      onStep();
    }
    for (const n of [...s.steps].reverse()) await this.notify(n);
  }

  /** `senders` concurrent senders, each taking the next subscriber; `onProgress` with the steps done so far. */
  async run(mix: StoreMix, senders: number, onProgress: (steps: number) => void, stepTimeoutMs = 90_000): Promise<void> {
    const queue = [...mix.subscribers];
    let done = 0;
    await Promise.all(
      Array.from({ length: senders }, async () => {
        for (let s = queue.shift(); s; s = queue.shift()) await this.live(s, () => onProgress(++done), stepTimeoutMs);
      }),
    );
  }

  /** Every answer by status ('network': refused, reset or timed out), notifications and reports apart. */
  statusCounts(): { notifications: Record<string, number>; reports: Record<string, number> } {
    return { notifications: countStatuses(this.notifications), reports: countStatuses(this.reports) };
  }
}
