// Rejected webhook calls per app and day, for the setup page ("no purchase events: wrong URL or Authorization").
import type { Knex } from 'knex';

export type RejectionReason = 'missing_authorization' | 'wrong_secret';

export async function countRejectedWebhook(db: Knex, appId: string, reason: RejectionReason): Promise<void> {
  await db('rejected_webhooks')
    .insert({ app_id: appId, day: db.raw('current_date'), reason, count: 1, last_at: db.fn.now() })
    .onConflict(['app_id', 'day', 'reason'])
    .merge({ count: db.raw('rejected_webhooks.count + 1'), last_at: db.fn.now() });
}

/** Today's (UTC day of the database) rejected calls of an app's webhook, by reason. */
export async function listRejectedWebhooksToday(db: Knex, appId: string): Promise<{ reason: string; count: number; last_at: Date }[]> {
  return db('rejected_webhooks')
    .where('app_id', appId)
    .where('day', db.raw('current_date'))
    .select<{ reason: string; count: number; last_at: Date }[]>('reason', 'count', 'last_at');
}
