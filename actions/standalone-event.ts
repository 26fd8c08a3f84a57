// Purchase-provider events that belong to no conversion are recorded straight away by the API
// (api/webhooks/submit-event.ts), exactly once, in one transaction:
// TEST marks the webhook connected, TRANSFER moves a user's attribution to their new identity, and promotional
// grants and unknown types are acknowledged and ignored; a purchase event of a platform validated store-direct is
// acknowledged and ignored with the reason (the store-direct report counts that purchase).
import type { Knex } from 'knex';
import { markWebhookConnected } from '../db/apps-writes.js';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import { insertPurchaseEvent, markPurchaseEvent } from '../db/purchase-events-writes.js';
import { transferUserAttribution } from '../db/user-attributions-writes.js';
import { platformOfStore } from '../lib/validation-providers.js';

/** Why a provider event of a store-direct platform is recorded and not counted (the two paths never both count). */
export const storeDirectDuplicateReason = (platform: 'ios' | 'android') =>
  `${platform} purchases of this app are validated store-direct (POST /api/sdk/purchase): ` +
  `the subscription provider's event is recorded, not counted, so no purchase counts twice`;

export interface StandaloneOutcome {
  eventId: string;
  error: string | null;
}

export type StandaloneKind = 'connect' | 'transfer' | 'ignore' | 'unkeyed' | 'store-direct';

export async function recordStandaloneEvent(
  { db }: { db: Knex },
  { appId, event: e, kind }: { appId: string; event: PurchaseEvent; kind: StandaloneKind },
): Promise<StandaloneOutcome> {
  return db.transaction(async (trx) => {
    const { row, inserted } = await insertPurchaseEvent(trx, appId, e);
    if (!inserted) return { eventId: row.id, error: row.error };
    let error: string | null = null;
    if (kind === 'connect') await markWebhookConnected(trx, appId);
    if (kind === 'transfer') await transferUserAttribution(trx, appId, e.transferredFrom, e.transferredTo);
    if (kind === 'unkeyed') error = 'event has no transaction id';
    if (kind === 'store-direct') error = storeDirectDuplicateReason(platformOfStore(e.store) ?? 'ios');
    await markPurchaseEvent(trx, row.id, {
      status: kind === 'ignore' || kind === 'store-direct' ? 'ignored' : error ? 'error' : 'processed',
      error,
    });
    return { eventId: row.id, error };
  });
}
