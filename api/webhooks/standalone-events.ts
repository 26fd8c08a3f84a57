// Purchase-provider events that belong to no conversion are recorded straight away by the API, exactly once:
// TEST marks the webhook connected, TRANSFER moves a user's attribution to their new identity, and promotional
// grants and unknown types are acknowledged and ignored.
import type { Knex } from 'knex';
import { markWebhookConnected } from '../../db/apps.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { insertPurchaseEvent, markPurchaseEvent } from '../../db/purchase-events.js';
import { transferUserAttribution } from '../../db/user-attributions.js';

export interface StandaloneOutcome { eventId: string; error: string | null }

export async function recordStandaloneEvent(db: Knex, appId: string, e: PurchaseEvent, kind: 'connect' | 'transfer' | 'ignore' | 'unkeyed'): Promise<StandaloneOutcome> {
  return db.transaction(async (trx) => {
    const { row, inserted } = await insertPurchaseEvent(trx, appId, e);
    if (!inserted) return { eventId: row.id, error: row.error };
    let error: string | null = null;
    if (kind === 'connect') await markWebhookConnected(trx, appId);
    if (kind === 'transfer') await transferUserAttribution(trx, appId, e.transferredFrom, e.transferredTo);
    if (kind === 'unkeyed') error = 'event has no transaction id';
    await markPurchaseEvent(trx, row.id, { status: kind === 'ignore' ? 'ignored' : error ? 'error' : 'processed', error });
    return { eventId: row.id, error };
  });
}
