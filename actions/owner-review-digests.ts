// Sending the owners' digests of new commission reviews (db/owner-review-digests.ts composes them): each due owner's
// new reviews become one outbox mail, claimed per owner with SKIP LOCKED so several workers may run the pass
// (jobs/owner-review-digest.ts).
import type { Knex } from 'knex';
import { composeDueOwnerDigests, type OwnerDigestOptions } from '../db/owner-review-digests.js';

/** Queues the due owners' digests; answers how many mails it queued. */
export function sendDueOwnerDigests(deps: { db: Knex }, opts: OwnerDigestOptions): Promise<number> {
  return composeDueOwnerDigests(deps.db, opts);
}
