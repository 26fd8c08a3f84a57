// A referral link's click (api/links/follow-link.ts): one insert, the hot path of a creator's link.
import type { Knex } from 'knex';
import { recordClick as insertClick, type NewClick } from '../../db/clicks.js';

export async function recordClick(deps: { db: Knex }, click: NewClick): Promise<{ id: string; clicked_at: Date }> {
  return insertClick(deps.db, click);
}
