// A user's creator: set by identify (click backfill), by a manual code entry, or by the first attributed purchase.
// Once a user converted for a creator they stay with that creator. Written in db/user-attributions-writes.ts.
import type { Knex } from 'knex';
import { preparedRows } from './prepared.js';
import type { UserAttributionRow } from '../schema/types.js';

/** The attribution of the first of `userIds` that has one (an app user id, then its original id and aliases). */
export async function findUserAttribution(db: Knex, appId: string, userIds: string[]): Promise<UserAttributionRow | undefined> {
  if (userIds.length === 0) return undefined;
  const rows = await preparedRows<UserAttributionRow>(
    db,
    db('user_attributions').where('app_id', appId).whereIn('app_user_id', userIds).select('*'),
  );
  return userIds.map((id) => rows.find((r) => r.app_user_id === id)).find(Boolean);
}

export interface Conversion {
  creatorCodeId: string;
  campaignId: string;
  creatorId: string;
  referralCode: string;
  method: string;
  /** The store offer code that bound the user (method offer_code). */
  offerCodeId: string | null;
}
