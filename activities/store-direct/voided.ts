// Android refunds from Google's Voided Purchases API (SubscriptionPurchaseV2 carries no refund state). The poll of
// workflows/play-voided-sync.ts lists what Google voided since the previous poll; each voided order we recorded
// becomes the REFUND of its period (subscription) or purchase (one-time product), handed to its conversion workflow
// exactly as every other event (update-with-start, update id = the idempotency key: a void seen again is the same
// event, never a second reversal); an order we never recorded is kept as ignored with the reason. A later report of a
// subscription that is no longer paid up reads the same list for its token (verify.ts), so the report carries it.
import { Context, heartbeat, log } from '@temporalio/activity';
import { GooglePlayError, googlePlayClientFor, type GooglePlayClient, type VoidedPurchase } from '../../clients/google-play.js';
import { findVoidTarget, voidedSyncedUntil } from '../../db/play-voided.js';
import { recordVoidedPoll, recordVoidedPurchase } from '../../db/play-voided-writes.js';
import { findStoreDirectSetup } from '../../db/store-credentials.js';
import { isUsableEntry, voidedRefundEvent, voidedWindow, type VoidedEntry } from '../../lib/play-voided.js';
import { conversionKeyOf, type PurchaseEvent } from '../../lib/purchase-event.js';
import { credentialsMissingDetail } from '../../errors/store-direct-refusals.js';
import { storeDirectGate } from '../../lib/store-purchase.js';
import { ingestIntoConversion } from '../../workflow-clients/conversion-ingest.js';
import type { PlayVoidedSyncInput, PlayVoidedSyncSummary } from '../../workflows/play-voided-sync-messages.js';
import { readAndroidCredential, UNREADABLE_SERVICE_ACCOUNT, type StoreDirectContext } from './context.js';

const GOOGLE_TIMEOUT_MS = 15_000;

/** The usable entries of a listing, oldest void first. */
export const usableVoids = (entries: VoidedPurchase[]): VoidedEntry[] =>
  entries.filter(isUsableEntry).sort((a, b) => Number(a.voidedTimeMillis) - Number(b.voidedTimeMillis));

/**
 * The refunds a later report of subscription `token` carries: its voided orders (the last 30 days, Google's limit)
 * that we recorded, or that this report itself records. A failed listing adds none (the poll will see the void):
 * the voids are an extra, never a reason to refuse the report.
 */
export async function voidedRefundsOfSubscription(
  ctx: StoreDirectContext,
  google: GooglePlayClient,
  packageName: string,
  appId: string,
  token: string,
  reported: PurchaseEvent[],
): Promise<PurchaseEvent[]> {
  let entries: VoidedEntry[];
  try {
    entries = usableVoids(await google.voidedPurchasesIn(packageName, voidedWindow(null, Date.now()))).filter(
      (e) => e.purchaseToken === token,
    );
  } catch (err) {
    if (!(err instanceof GooglePlayError)) throw err;
    log.warn('voided purchases not read for a later report; the poll will see them', { appId, error: err.message });
    return [];
  }
  const refunds: PurchaseEvent[] = [];
  for (const entry of entries) {
    const target = await findVoidTarget(ctx.db, appId, token, entry.orderId);
    if (target.kind === 'subscription') refunds.push(voidedRefundEvent(entry, target));
    else if (reported.some((e) => e.transactionId === entry.orderId))
      refunds.push(voidedRefundEvent(entry, { kind: 'subscription', environment: reported[0]!.environment }));
  }
  return refunds;
}

/**
 * One voided order (listed by the poll, or named by a Play notification, notification.ts): the REFUND of what it
 * paid for, handed to its conversion (update-with-start with the activity's own client), or ignored with the reason
 * when we never recorded that order; either way kept in play_voided_purchases.
 */
export async function applyVoidedEntry(ctx: StoreDirectContext, appId: string, entry: VoidedEntry): Promise<'refund' | 'ignored'> {
  const target = await findVoidTarget(ctx.db, appId, entry.purchaseToken, entry.orderId);
  if (target.kind === 'unknown') {
    await recordVoidedPurchase(ctx.db, appId, entry, { kind: null, outcome: 'ignored', reason: target.reason, purchaseEventId: null });
    return 'ignored';
  }
  const { client, info } = Context.current();
  const event = voidedRefundEvent(entry, target);
  const result = await ingestIntoConversion(client, { taskQueue: info.taskQueue, appId, conversionKey: conversionKeyOf(event)! }, event);
  await recordVoidedPurchase(ctx.db, appId, entry, {
    kind: target.kind,
    outcome: 'refund',
    reason: result.error,
    purchaseEventId: result.eventId,
  });
  return 'refund';
}

export type PlayStoreAccess = { active: false } | { active: true; google?: GooglePlayClient; packageName?: string; error?: string };

/**
 * The app's Google Play client, or why there is none: `active` false once Android is no longer store-direct. A
 * database fault while reading the credential is an outage: thrown, the activity retried.
 */
export async function googleOfApp(ctx: StoreDirectContext, appId: string): Promise<PlayStoreAccess> {
  // The same gate as a report's (verify.ts): not store-direct (inactive), or the credential or package name missing.
  const gate = storeDirectGate('android', await findStoreDirectSetup(ctx.db, appId, 'android'), true);
  if (!gate.ok) return gate.switched ? { active: true, error: credentialsMissingDetail('android') } : { active: false };
  const secret = await readAndroidCredential(ctx, appId);
  if (secret === null) return { active: true, error: UNREADABLE_SERVICE_ACCOUNT };
  if (!secret) return { active: true, error: credentialsMissingDetail('android') };
  try {
    return { active: true, google: googlePlayClientFor(ctx.config, secret, GOOGLE_TIMEOUT_MS), packageName: gate.storeId };
  } catch {
    return { active: true, error: 'The stored service account key is not readable: upload the JSON key again.' };
  }
}

export function voidedActivities(ctx: StoreDirectContext) {
  return {
    /** One poll: list the window, apply each voided order, move the cursor (kept where it was when Google failed). */
    async syncPlayVoided({ appId }: PlayVoidedSyncInput): Promise<PlayVoidedSyncSummary> {
      const summary: PlayVoidedSyncSummary = { active: true, listed: 0, refunded: 0, ignored: 0, syncedUntilMs: null, error: null };
      const store = await googleOfApp(ctx, appId);
      if (!store.active) return { ...summary, active: false };
      if (!store.google) {
        await recordVoidedPoll(ctx.db, appId, { error: store.error! });
        return { ...summary, error: store.error! };
      }
      const window = voidedWindow(await voidedSyncedUntil(ctx.db, appId), Date.now());
      let entries: VoidedEntry[];
      try {
        entries = usableVoids(await store.google.voidedPurchasesIn(store.packageName!, window));
      } catch (err) {
        if (!(err instanceof GooglePlayError)) throw err;
        await recordVoidedPoll(ctx.db, appId, { error: err.message });
        return { ...summary, error: err.message };
      }
      for (const entry of entries) {
        heartbeat();
        summary.listed += 1;
        if ((await applyVoidedEntry(ctx, appId, entry)) === 'refund') summary.refunded += 1;
        else summary.ignored += 1;
      }
      await recordVoidedPoll(ctx.db, appId, { syncedUntilMs: window.endMs });
      return { ...summary, syncedUntilMs: window.endMs };
    },
  };
}
