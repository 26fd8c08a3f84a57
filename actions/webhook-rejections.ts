// A subscription-provider webhook call refused for its Authorization (api/webhooks/subprovider.ts) is counted per app,
// day and reason, so the setup page can say why no purchase events arrive.
import type { Knex } from 'knex';
import type { RejectionReason } from '../db/rejected-webhooks.js';
import { countRejectedWebhook } from '../db/rejected-webhooks-writes.js';

export async function recordRejectedWebhook(
  deps: { db: Knex },
  { appId, reason }: { appId: string; reason: RejectionReason },
): Promise<void> {
  await countRejectedWebhook(deps.db, appId, reason);
}
