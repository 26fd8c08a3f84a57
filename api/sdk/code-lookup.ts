// What a typed code is, shared by validate-code and set-referral-code so both apply the same precedence: a creator
// code of an active campaign first, then a free-access code (spec "POST /sdk/validate-code").
import type { Knex } from 'knex';
import { findActiveCreatorCode } from '../../db/creators.js';
import { findFreeAccessCode, type FreeAccessCode } from '../../db/free-access.js';
import type { ApiCaches, FoundCode } from '../sdk-caches.js';

/**
 * The same look-up through the API's code cache (validate-code: read-only, hot). Rows are cached, rules such as a
 * free code's expiry are still evaluated by the caller at every call.
 */
export async function findCodeForAppCached(db: Knex, caches: ApiCaches, appId: string, code: string): Promise<FoundCode | undefined> {
  return (await caches.codes.getOrLoad(appId, code, async () => (await findCodeForApp(db, appId, code)) ?? null)) ?? undefined;
}

/** `code` must already be cleaned up. A creator code of a paused or draft campaign is not found. */
export async function findCodeForApp(db: Knex, appId: string, code: string): Promise<FoundCode | undefined> {
  const creatorCode = await findActiveCreatorCode(db, appId, code);
  if (creatorCode) return { kind: 'creator', creatorCode };
  const freeCode = await findFreeAccessCode(db, appId, code);
  return freeCode ? { kind: 'free', freeCode } : undefined;
}

/** Human text for a free-access code, e.g. "Free premium access for 1 year and 30 days". */
export function describeFreeAccess(c: Pick<FreeAccessCode, 'entitlement' | 'access_duration_years' | 'access_duration_days'>): string {
  const parts: string[] = [];
  if (c.access_duration_years) parts.push(`${c.access_duration_years} year${c.access_duration_years === 1 ? '' : 's'}`);
  if (c.access_duration_days) parts.push(`${c.access_duration_days} day${c.access_duration_days === 1 ? '' : 's'}`);
  const openEnded = c.access_duration_years === null && c.access_duration_days === null;
  return `Free ${c.entitlement} access ${openEnded ? 'with no end date' : `for ${parts.join(' and ') || '0 days'}`}`;
}
