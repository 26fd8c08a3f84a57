// Android refunds from Google's Voided Purchases API (SubscriptionPurchaseV2 carries no refund state). The poll of
// workflows/play-voided-sync.ts lists what Google voided since the previous poll; each voided order we recorded
// becomes the REFUND of its period (subscription) or purchase (one-time product), handed to its conversion workflow
// exactly as every other event (update-with-start, update id = the idempotency key: a void seen again is the same
// event, never a second reversal); an order we never recorded is kept as ignored with the reason. A later report of a
// subscription that is no longer paid up reads the same list for its token (verify.ts), so the report carries it.
import { Context, heartbeat, log } from '@temporalio/activity';
import { GooglePlayError, googlePlayClientFor, type GooglePlayClient, type VoidedPurchase } from '../../clients/google-play.js';
import { findVoidTarget, recordVoidedPoll, recordVoidedPurchase, voidedSyncedUntil } from '../../db/play-voided.js';
import { findStoreDirectSetup } from '../../db/store-credentials.js';
import { isUsableEntry, voidedRefundEvent, voidedWindow, type VoidedEntry } from '../../lib/play-voided.js';
import { conversionKeyOf, type PurchaseEvent } from '../../lib/purchase-event.js';
import { STORE_VERIFIER } from '../../lib/validation-providers.js';
import { ingestIntoConversion } from '../../workflow-clients/conversion-ingest.js';
import type { PlayVoidedSyncInput, PlayVoidedSyncSummary } from '../../workflows/play-voided-sync-messages.js';
import { readAndroidCredential, UNREADABLE_SERVICE_ACCOUNT, type StoreDirectContext } from './context.js';

const GOOGLE_TIMEOUT_MS = 15_000;

const usable = (entries: VoidedPurchase[]): VoidedEntry[] => entries.filter(isUsableEntry)
  .sort((a, b) => Number(a.voidedTimeMillis) - Number(b.voidedTimeMillis));

/**
 * The refunds a later report of subscription `token` carries: its voided orders (the last 30 days, Google's limit)
 * that we recorded, or that this report itself records. A failed listing adds none (the poll will see the void):
 * the voids are an extra, never a reason to refuse the report.
 */
export async function voidedRefundsOfSubscription(ctx: StoreDirectContext, google: GooglePlayClient, packageName: string, appId: string, token: string, reported: PurchaseEvent[]): Promise<PurchaseEvent[]> {
  let entries: VoidedEntry[];
  try {
    entries = usable(await google.voidedPurchasesIn(packageName, voidedWindow(null, Date.now()))).filter((e) => e.purchaseToken === token);
  } catch (err) {
    if (!(err instanceof GooglePlayError)) throw err;
    log.warn('voided purchases not read for a later report; the poll will see them', { appId, error: err.message });
    return [];
  }
  const refunds: PurchaseEvent[] = [];
  for (const entry of entries) {
    const target = await findVoidTarget(ctx.db, appId, token, entry.orderId);
    if (target.kind === 'subscription') refunds.push(voidedRefundEvent(entry, target));
    else if (reported.some((e) => e.transactionId === entry.orderId)) refunds.push(voidedRefundEvent(entry, { kind: 'subscription', environment: reported[0]!.environment }));
  }
  return refunds;
}

export function voidedActivities(ctx: StoreDirectContext) {
  /** The store's client for the app, or why there is none. */
  async function googleOf(appId: string): Promise<{ active: false } | { active: true; google?: GooglePlayClient; packageName?: string; error?: string }> {
    const setup = await findStoreDirectSetup(ctx.db, appId, 'android');
    if (!setup || setup.provider !== STORE_VERIFIER.android) return { active: false };
    // A database fault while reading it is an outage: thrown, the poll retried, its recorded status left as it was.
    const secret = await readAndroidCredential(ctx, appId);
    if (secret === null) return { active: true, error: UNREADABLE_SERVICE_ACCOUNT };
    if (!secret || !setup.packageName) return { active: true, error: 'The Google Play service account is missing: upload it through the credential-setup link.' };
    try {
      return { active: true, google: googlePlayClientFor(ctx.config, secret, GOOGLE_TIMEOUT_MS), packageName: setup.packageName };
    } catch {
      return { active: true, error: 'The stored service account key is not readable: upload the JSON key again.' };
    }
  }

  return {
    /** One poll: list the window, apply each voided order, move the cursor (kept where it was when Google failed). */
    async syncPlayVoided({ appId }: PlayVoidedSyncInput): Promise<PlayVoidedSyncSummary> {
      const summary: PlayVoidedSyncSummary = { active: true, listed: 0, refunded: 0, ignored: 0, syncedUntilMs: null, error: null };
      const store = await googleOf(appId);
      if (!store.active) return { ...summary, active: false };
      if (!store.google) {
        await recordVoidedPoll(ctx.db, appId, { error: store.error! });
        return { ...summary, error: store.error! };
      }
      const window = voidedWindow(await voidedSyncedUntil(ctx.db, appId), Date.now());
      let entries: VoidedEntry[];
      try {
        entries = usable(await store.google.voidedPurchasesIn(store.packageName!, window));
      } catch (err) {
        if (!(err instanceof GooglePlayError)) throw err;
        await recordVoidedPoll(ctx.db, appId, { error: err.message });
        return { ...summary, error: err.message };
      }
      const { client, info } = Context.current();
      for (const entry of entries) {
        heartbeat();
        summary.listed += 1;
        const target = await findVoidTarget(ctx.db, appId, entry.purchaseToken, entry.orderId);
        if (target.kind === 'unknown') {
          summary.ignored += 1;
          await recordVoidedPurchase(ctx.db, appId, entry, { kind: null, outcome: 'ignored', reason: target.reason, purchaseEventId: null });
          continue;
        }
        const event = voidedRefundEvent(entry, target);
        const result = await ingestIntoConversion(client, { taskQueue: info.taskQueue, appId, conversionKey: conversionKeyOf(event)! }, event);
        summary.refunded += 1;
        await recordVoidedPurchase(ctx.db, appId, entry, { kind: target.kind, outcome: 'refund', reason: result.error, purchaseEventId: result.eventId });
      }
      await recordVoidedPoll(ctx.db, appId, { syncedUntilMs: window.endMs });
      return { ...summary, syncedUntilMs: window.endMs };
    },
  };
}
