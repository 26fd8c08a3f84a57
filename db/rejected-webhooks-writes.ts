// Counts a rejected webhook call (reads in db/rejected-webhooks.ts): one row per app, day and reason.
import type { Knex } from 'knex';
import type { RejectionReason } from './rejected-webhooks.js';

export async function countRejectedWebhook(db: Knex, appId: string, reason: RejectionReason): Promise<void> {
  await db('rejected_webhooks')
    .insert({ app_id: appId, day: db.raw('current_date'), reason, count: 1, last_at: db.fn.now() })
    .onConflict(['app_id', 'day', 'reason'])
    .merge({ count: db.raw('rejected_webhooks.count + 1'), last_at: db.fn.now() });
}
