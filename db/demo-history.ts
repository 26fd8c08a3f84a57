// The reads `svc dev`'s demo history waits and looks up by (actions/demo-history.ts): the ids of the codes it issued,
// how many released-to-be commissions its conversion workflows still hold, and the demo creator behind its code.
import type { Knex } from 'knex';
import { IN_REVIEW_SQL } from './commission-reviews.js';

/** The id of each of these codes of the app, by code. */
export async function codeIdsOf(db: Knex, appId: string, codes: readonly string[]): Promise<Map<string, string>> {
  const rows = await db('creator_codes').whereIn('code', codes).where('app_id', appId).select<{ id: string; code: string }[]>('id', 'code');
  return new Map(rows.map((c) => [c.code, c.id]));
}

/**
 * The organization's reserved earns whose holding period is over: the conversion workflows release them at once
 * (one held by a review is not: it waits for a person, so it is not waited for here).
 */
export async function reservedPastRelease(db: Knex, orgId: string): Promise<number> {
  const rows = await db('commissions')
    .where({ org_id: orgId, status: 'reserved', kind: 'earn' })
    .where('payable_at', '<=', db.fn.now())
    .whereRaw(`not ${IN_REVIEW_SQL('commissions')}`)
    .count<{ n: string }[]>('* as n');
  return Number(rows[0]!.n);
}

/** The creator of the app's code. */
export async function creatorOfCode(db: Knex, appId: string, code: string): Promise<string> {
  const row = await db('creator_codes').where({ app_id: appId, code }).first<{ creator_id: string }>('creator_id');
  return row.creator_id;
}
