// What the two stores' notification activities share (activities/store-direct/apple-notifications.ts,
// google-notifications.ts; the flow is workflows/store-notification.ts): the user a notified purchase binds to, whether
// the app has reported a purchase meanwhile, and the hand-off of one event to its conversion workflow, exactly as
// /sdk/purchase hands it (update-with-start, update id = the idempotency key), so notified and reported count once.
import { Context } from '@temporalio/activity';
import { hasPurchaseEvent } from '../../db/purchase-events.js';
import { findUserByAccountToken } from '../../db/store-notifications.js';
import { conversionKeyOf, type PurchaseEvent } from '../../lib/purchase-event.js';
import { ingestIntoConversion } from '../../workflow-clients/conversion-ingest.js';
import type { IngestResult } from '../../workflows/conversion-messages.js';
import type { StoreDirectContext } from './context.js';

export type NotifiedBinding = Parameters<typeof findUserByAccountToken>[3];

/** The user the store's binding (Apple's appAccountToken, Google's obfuscatedExternalAccountId) names; undefined: none. */
export async function boundUserOf(
  ctx: StoreDirectContext,
  appId: string,
  token: string | null | undefined,
  among: NotifiedBinding,
): Promise<string | undefined> {
  return token ? findUserByAccountToken(ctx.db, appId, token, among) : undefined;
}

/** The activity body of both stores' report look (registered as `isPurchaseReported` and `playPurchaseReported`). */
export function purchaseReported(ctx: StoreDirectContext) {
  return ({ appId, event }: { appId: string; event: PurchaseEvent }): Promise<boolean> => hasPurchaseEvent(ctx.db, appId, event);
}

/** One event into its conversion workflow; the client is the worker's own (activity context). */
export async function handToItsConversion(appId: string, event: PurchaseEvent): Promise<IngestResult> {
  const { client, info } = Context.current();
  return ingestIntoConversion(client, { taskQueue: info.taskQueue, appId, conversionKey: conversionKeyOf(event)! }, event);
}
