// Sending the creators' earnings digests (db/creator-digests.ts composes them): each due creator's items become one
// outbox mail, claimed per creator with SKIP LOCKED so several workers may run the pass (jobs/creator-digest.ts).
import type { Knex } from 'knex';
import { composeDueDigests, type DigestOptions } from '../db/creator-digests.js';

/** Queues the due digests; answers how many mails it queued. */
export function sendDueDigests(deps: { db: Knex }, opts: DigestOptions): Promise<number> {
  return composeDueDigests(deps.db, opts);
}
