// Rejected webhook calls per app and day, for the setup page ("no purchase events: wrong URL or Authorization").
// Read here; counted in db/rejected-webhooks-writes.ts (through actions/webhook-rejections.ts).
import type { Knex } from 'knex';

export type RejectionReason = 'missing_authorization' | 'wrong_secret';

/** Today's (UTC day of the database) rejected calls of an app's webhook, by reason. */
export async function listRejectedWebhooksToday(db: Knex, appId: string): Promise<{ reason: string; count: number; last_at: Date }[]> {
  return db('rejected_webhooks')
    .where('app_id', appId)
    .where('day', db.raw('current_date'))
    .select<{ reason: string; count: number; last_at: Date }[]>('reason', 'count', 'last_at');
}
