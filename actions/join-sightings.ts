// The join address's retention (docs/fraud-signals.md "Facts the signals read"): a creator's join IP and User-Agent
// (creator_codes.join_ip, join_user_agent; self-referral evidence) are forgotten JOIN_SIGHTING_RETENTION_DAYS after
// the join. Run by the worker's periodic pass (jobs/join-sighting-prune.ts); safe to repeat and to run on several
// workers at once (a plain conditional update).
import type { Knex } from 'knex';
import { pruneJoinSightings as pruneInDb } from '../db/creators-writes.js';
import { JOIN_SIGHTING_RETENTION_DAYS } from '../lib/fraud-signals/self-referral.js';

/** Nulls the join address and User-Agent of memberships older than the retention; answers how many were cleared. */
export async function pruneJoinSightings(deps: { db: Knex }): Promise<number> {
  return pruneInDb(deps.db, JOIN_SIGHTING_RETENTION_DAYS);
}
