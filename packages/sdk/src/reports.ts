// What the app reports (rules 1, 5, 7, 8, 12): events and store purchases, each persisted in the outbox
// (outbox.ts) before its first send and removed on an answer or a final refusal; flush sends what is left.
import { normalizeCode } from './attribution.js';
import { SvcError } from './http.js';
import { derivedEventId, uuidV4, type RandomBytes } from './ids.js';
import { purchaseStoreId } from './purchase-id.js';
import type { OutboxKind } from './outbox.js';
import type { CurrentSession, ReadySession } from './session.js';
import type { SingleFlight } from './single-flight.js';
import { KEYS, readJson, writeJson, type StorageAdapter } from './storage.js';
import type { BaseClient, BaseConfig, PurchaseReport, PurchaseResult, SyncResult, TrackEventResult } from './types.js';

export type Reports = Pick<BaseClient<never>, 'trackEvent' | 'reportPurchase' | 'syncPurchases'> & {
  /** Sends what a killed or offline process left in @svc/outbox. */
  flush(): Promise<{ events: number; purchases: number }>;
};
/** Told after each successful init: the app's config and whether init answered store_direct. */
export type Started = (config: BaseConfig, storeDirect: boolean) => void;

/** The client's calls, and what initialize tells once init answered. */
export function createReports(
  deps: { randomBytes: RandomBytes },
  ready: ReadySession,
  current: CurrentSession,
  flight: SingleFlight,
): [Reports, Started] {
  let storeDirect = false;
  let stopCapture: (() => void) | null = null;

  /** One outbox entry to the server, once at a time per id: removed on an answer (after `answered`) or a final refusal. */
  async function send<T>(
    kind: OutboxKind,
    id: string,
    path: string,
    body: Record<string, unknown>,
    answered?: (s: StorageAdapter) => Promise<void>,
  ): Promise<T> {
    const { transport: t, outbox: o, storage: s } = ready();
    return flight(`${kind}:${id}`, async () => {
      try {
        const res = await t.call<T>('POST', path, body);
        await answered?.(s);
        await o.remove(kind, id);
        return res;
      } catch (err) {
        if (err instanceof SvcError && !err.retryable) await o.remove(kind, id); // refused for good (422)
        throw err;
      }
    });
  }

  /** An event never throws: unsent, it stays in the outbox for the next flush. */
  function sendEvent(body: Record<string, unknown>): Promise<TrackEventResult> {
    const id = String(body.eventId);
    return send<TrackEventResult>('events', id, '/sdk/event', body).catch(() => ({ tracked: false, event_id: id }));
  }

  /** A purchase throws what the call threw; answered, its store id joins the sent-set. */
  function sendPurchase(storeId: string, body: Record<string, unknown>): Promise<PurchaseResult> {
    return send<PurchaseResult>('purchases', storeId, '/sdk/purchase', body, async (s) => {
      const sent = (await readJson<string[]>(s, KEYS.reportedPurchases)) ?? [];
      if (!sent.includes(storeId)) await writeJson(s, KEYS.reportedPurchases, [...sent, storeId]);
    });
  }

  /** Whether a store id is in the sent-set (@svc/reported_purchases). */
  const isSent = async (storeId: string): Promise<boolean> =>
    ((await readJson<string[]>(ready().storage, KEYS.reportedPurchases)) ?? []).includes(storeId);

  const reports: Reports = {
    flush() {
      return flight('flush', async () => {
        const { outbox: o } = ready();
        const pending = await o.pending();
        let events = 0;
        let purchases = 0;
        for (const body of Object.values(pending.events)) if ((await sendEvent(body)).tracked) events += 1;
        for (const [id, body] of Object.entries(pending.purchases)) {
          try {
            await sendPurchase(id, body);
            purchases += 1;
          } catch {
            // still pending (retryable) or dropped (refused); the host's own call reports the error
          }
        }
        return { events, purchases };
      });
    },

    async trackEvent(input) {
      let ctx: ReturnType<ReadySession>;
      try {
        ctx = ready();
      } catch {
        return { tracked: false };
      }
      const appUserId = input.appUserId ?? (await ctx.storage.getItem(KEYS.appUserId));
      if (!appUserId || !input.eventType) return { tracked: false };
      const properties = input.properties ?? {};
      const code = input.referralCode ? normalizeCode(input.referralCode) : await ctx.storage.getItem(KEYS.code);
      const eventId = input.eventId ?? derivedEventId(input.eventType, appUserId, properties) ?? uuidV4(deps.randomBytes);
      const body = await ctx.outbox.put('events', eventId, {
        eventType: input.eventType,
        appUserId,
        properties,
        referralCode: code ?? undefined,
        eventId,
        platform: ctx.platform,
      });
      return sendEvent(body);
    },

    async reportPurchase(purchase) {
      const { storage: s, outbox: o } = ready();
      const storeId = purchaseStoreId(purchase);
      const sent = (await readJson<string[]>(s, KEYS.reportedPurchases)) ?? [];
      // Rule 7: the stored code goes with the first transaction, where it binds the purchase to the creator.
      const code = purchase.referralCode ? normalizeCode(purchase.referralCode) : sent.length === 0 ? await s.getItem(KEYS.code) : null;
      const body = await o.put('purchases', storeId, {
        platform: purchase.platform,
        signedTransaction: purchase.signedTransaction,
        purchaseToken: purchase.purchaseToken,
        productId: purchase.productId,
        price: purchase.price,
        currency: purchase.currency,
        referralCode: code ?? undefined,
        appUserId: purchase.appUserId ?? (await s.getItem(KEYS.appUserId)) ?? undefined,
      });
      return sendPurchase(storeId, body);
    },

    async syncPurchases(): Promise<SyncResult> {
      const source = current()?.config.purchaseSource;
      const result: SyncResult = { fetched: 0, sent: 0, failed: 0 };
      if (!storeDirect || !source) return result;
      let purchases: PurchaseReport[];
      try {
        purchases = await source.getPurchases();
      } catch {
        return result;
      }
      result.fetched = purchases.length;
      for (const p of purchases) {
        if (await isSent(purchaseStoreId(p))) continue; // rule 12: `sent` excludes already-reported purchases
        try {
          await reports.reportPurchase(p);
          result.sent += 1;
        } catch {
          result.failed += 1;
        }
      }
      return result;
    },
  };
  const started: Started = (config, direct) => {
    storeDirect = direct;
    stopCapture?.();
    stopCapture = null;
    // Rule 1: auto capture only on a store-direct platform, and only when the host does not report itself.
    if (direct && config.autoCapture !== false && config.purchaseSource?.onPurchase) {
      stopCapture = config.purchaseSource.onPurchase((p) => {
        void isSent(purchaseStoreId(p))
          .then((sent) => (sent ? undefined : reports.reportPurchase(p)))
          .catch(() => undefined);
      });
    }
  };
  return [reports, started];
}
