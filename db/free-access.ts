// Free-access (comp) codes, the per-user grants they hand out and the redemption log. Seats are counted under a
// row lock on the code; access is re-evaluated on every check against the code's current state (spec "States and
// transitions" > Free-access grant), so blocking, expiring or shrinking a code takes effect for every holder at once.
// Read here; the statements that write in db/free-access-writes.ts, the rules that combine them in actions/free-codes.ts.
import type { Knex } from 'knex';
import type { FreeAccessCodeRow, FreeAccessGrantRow } from '../schema/types.js';

export type FreeAccessCode = Pick<
  FreeAccessCodeRow,
  | 'id'
  | 'app_id'
  | 'code'
  | 'name'
  | 'entitlement'
  | 'access_duration_years'
  | 'access_duration_days'
  | 'expires_at'
  | 'seat_limit'
  | 'seats_used'
  | 'blocked'
  | 'custom_data'
>;

export const CODE_COLUMNS = [
  'id',
  'app_id',
  'code',
  'name',
  'entitlement',
  'access_duration_years',
  'access_duration_days',
  'expires_at',
  'seat_limit',
  'seats_used',
  'blocked',
  'custom_data',
];

export type GrantSummary = Pick<FreeAccessGrantRow, 'id' | 'granted_at' | 'access_expires_at'>;

/** The free-access code `code` (already cleaned up) of the app, whatever its state. */
export async function findFreeAccessCode(db: Knex, appId: string, code: string): Promise<FreeAccessCode | undefined> {
  return db('free_access_codes').where({ app_id: appId, code }).first<FreeAccessCode | undefined>(CODE_COLUMNS);
}

/** Neither blocked nor past its own expiry: existing holders may re-redeem (seats aside). */
export function isFreeCodeLive(c: FreeAccessCode, now = new Date()): boolean {
  return !c.blocked && (c.expires_at === null || c.expires_at > now);
}

/** Live and with a seat left for a new user (null seat_limit = unlimited). */
export function isFreeCodeRedeemable(c: FreeAccessCode, now = new Date()): boolean {
  return isFreeCodeLive(c, now) && (c.seat_limit === null || c.seats_used < c.seat_limit);
}

export interface AccessGrant {
  code: string;
  entitlement: string;
  expires_at: Date | null;
}

/**
 * The user's free access right now, or undefined. A grant counts while its code is neither blocked nor expired,
 * the grant itself has not run out, and it ranks within the code's CURRENT seat limit (by granted_at, so lowering
 * the limit removes the latest holders). Among several the longest-lasting wins (open-ended first).
 */
export async function findActiveAccessGrant(db: Knex, appId: string, appUserId: string): Promise<AccessGrant | undefined> {
  const { rows } = await db.raw<{ rows: AccessGrant[] }>(
    `with ranked as (
       select g.app_user_id, g.access_expires_at, c.code, c.entitlement, c.blocked, c.seat_limit,
              c.expires_at as code_expires_at,
              row_number() over (partition by g.free_code_id order by g.granted_at, g.id) as seat_rank
       from free_access_grants g join free_access_codes c on c.id = g.free_code_id
       where g.free_code_id in (select free_code_id from free_access_grants where app_id = ? and app_user_id = ?)
     )
     select code, entitlement, least(access_expires_at, code_expires_at) as expires_at
     from ranked
     where app_user_id = ? and not blocked
       and (code_expires_at is null or code_expires_at > now())
       and (access_expires_at is null or access_expires_at > now())
       and (seat_limit is null or seat_rank <= seat_limit)
     order by least(access_expires_at, code_expires_at) desc nulls first
     limit 1`,
    [appId, appUserId, appUserId],
  );
  return rows[0];
}

export interface FreeCodeView {
  id: string;
  app_id: string;
  code: string;
  name: string | null;
  entitlement: string;
  access_duration_years: number | null;
  access_duration_days: number | null;
  expires_at: Date | null;
  seat_limit: number | null;
  seats_used: number;
  blocked: boolean;
  custom_data: unknown;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const FREE_CODE_COLUMNS = [
  'id',
  'app_id',
  'code',
  'name',
  'entitlement',
  'access_duration_years',
  'access_duration_days',
  'expires_at',
  'seat_limit',
  'seats_used',
  'blocked',
  'custom_data',
  'created_by',
  'created_at',
  'updated_at',
];

export async function listFreeCodes(db: Knex, appId: string): Promise<FreeCodeView[]> {
  return db('free_access_codes')
    .where('app_id', appId)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select<FreeCodeView[]>(FREE_CODE_COLUMNS);
}

/** A code of the app by its (cleaned-up) text. */
export async function findFreeCodeByCode(db: Knex, appId: string, code: string): Promise<FreeCodeView | undefined> {
  return db('free_access_codes').where({ app_id: appId, code }).first<FreeCodeView | undefined>(FREE_CODE_COLUMNS);
}

export interface CodeRedemption {
  app_user_id: string;
  granted_at: Date;
  expires_at: Date | null;
}

/** Where a page of redemptions ends: the last grant's time as PostgreSQL wrote it (exact to the microsecond) and id. */
export type RedemptionsCursor = readonly [grantedAt: string, id: string];

/**
 * The users a code granted access to (one grant per user; a re-redemption renews it), newest grant first, one page
 * after `after`; `next` is set when more follow.
 */
export async function listCodeRedemptions(
  db: Knex,
  freeCodeId: string,
  limit: number,
  after: RedemptionsCursor | undefined,
): Promise<{ redemptions: CodeRedemption[]; next: RedemptionsCursor | undefined }> {
  const q = db('free_access_grants')
    .where('free_code_id', freeCodeId)
    .orderBy([
      { column: 'granted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit + 1)
    .select<(CodeRedemption & { id: string; position: string })[]>(
      'id',
      'app_user_id',
      'granted_at',
      'access_expires_at as expires_at',
      db.raw('granted_at::text as position'),
    );
  if (after) void q.whereRaw('(granted_at, id) < (?::timestamptz, ?)', [after[0], after[1]]);
  const rows = await q;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    redemptions: page.map(({ app_user_id, granted_at, expires_at }) => ({ app_user_id, granted_at, expires_at })),
    next: rows.length > limit && last ? [last.position, last.id] : undefined,
  };
}
