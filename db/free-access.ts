// Free-access (comp) codes, the per-user grants they hand out and the redemption log. Seats are counted under a
// row lock on the code; access is re-evaluated on every check against the code's current state (spec "States and
// transitions" > Free-access grant), so blocking, expiring or shrinking a code takes effect for every holder at once.
import type { Knex } from 'knex';
import type { FreeAccessCodeRow, FreeAccessGrantRow } from '../schema/types.js';
import { isUniqueViolation } from '../lib/pg-errors.js';

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

const CODE_COLUMNS = [
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
function isFreeCodeLive(c: FreeAccessCode, now = new Date()): boolean {
  return !c.blocked && (c.expires_at === null || c.expires_at > now);
}

/** Live and with a seat left for a new user (null seat_limit = unlimited). */
export function isFreeCodeRedeemable(c: FreeAccessCode, now = new Date()): boolean {
  return isFreeCodeLive(c, now) && (c.seat_limit === null || c.seats_used < c.seat_limit);
}

export interface Redemption {
  appId: string;
  freeCodeId: string;
  appUserId: string;
  ip: string | null;
  userAgent: string | null;
}

export type RedeemOutcome =
  { kind: 'unavailable'; code: FreeAccessCode } | { kind: 'granted'; code: FreeAccessCode; grant: GrantSummary; alreadyGranted: boolean };

/**
 * Grants (or re-grants) the code to the user. The code row is locked FOR UPDATE for the whole transaction, so
 * concurrent redemptions of one code run one after another: the seat check, the seats_used increment and the
 * grant's rank all see every earlier grant. A user who already holds a grant re-grants without taking a seat,
 * but only while that grant is still inside the code's current seat limit (otherwise /sdk/access would deny it).
 */
export async function redeemFreeAccessCode(db: Knex, r: Redemption): Promise<RedeemOutcome | undefined> {
  return db.transaction(async (trx) => {
    const code = await trx('free_access_codes')
      .where({ id: r.freeCodeId, app_id: r.appId })
      .forUpdate()
      .first<FreeAccessCode | undefined>(CODE_COLUMNS);
    if (!code) return undefined;
    if (!isFreeCodeLive(code)) return { kind: 'unavailable', code };

    const existing = await trx('free_access_grants')
      .where({ free_code_id: code.id, app_user_id: r.appUserId })
      .first<{ id: string } | undefined>('id');
    let grant: GrantSummary;
    if (existing) {
      if (code.seat_limit !== null && (await rankGrant(trx, existing.id)) > code.seat_limit) return { kind: 'unavailable', code };
      grant = await renewGrant(trx, existing.id);
    } else {
      if (!isFreeCodeRedeemable(code)) return { kind: 'unavailable', code };
      await trx('free_access_codes').where('id', code.id).increment('seats_used', 1);
      grant = await insertGrant(trx, code.id, r.appUserId);
    }
    await trx('free_access_redemptions').insert({
      grant_id: grant.id,
      app_id: r.appId,
      app_user_id: r.appUserId,
      ip: r.ip,
      user_agent: r.userAgent,
      already_granted: existing !== undefined,
    });
    return { kind: 'granted', code, grant, alreadyGranted: existing !== undefined };
  });
}

// Duration runs from the first grant (both null = open-ended) and never past the code's own expiry; PostgreSQL's
// least() ignores nulls, so an open-ended grant of an expiring code ends with the code.
const accessExpirySql = (grantedAt: string): string => `least(
  case when c.access_duration_years is null and c.access_duration_days is null then null
       else ${grantedAt} + make_interval(years => coalesce(c.access_duration_years, 0), days => coalesce(c.access_duration_days, 0)) end,
  c.expires_at)`;

// clock_timestamp(), not now(): now() is the transaction's start, which can precede the lock wait, and granted_at
// must follow the order in which seats were actually taken (it ranks holders against the seat limit).
async function insertGrant(trx: Knex.Transaction, freeCodeId: string, appUserId: string): Promise<GrantSummary> {
  const { rows } = await trx.raw<{ rows: GrantSummary[] }>(
    `insert into free_access_grants (free_code_id, app_id, app_user_id, granted_at, last_redeemed_at, access_expires_at)
     select c.id, c.app_id, ?, t.ts, t.ts, ${accessExpirySql('t.ts')}
     from free_access_codes c, (select clock_timestamp() as ts) t where c.id = ?
     returning id, granted_at, access_expires_at`,
    [appUserId, freeCodeId],
  );
  return rows[0]!;
}

/** Re-grant: counted and logged, expiry recomputed from the first grant with the code's current settings. */
async function renewGrant(trx: Knex.Transaction, grantId: string): Promise<GrantSummary> {
  const { rows } = await trx.raw<{ rows: GrantSummary[] }>(
    `update free_access_grants g
     set last_redeemed_at = clock_timestamp(), redemption_count = g.redemption_count + 1,
         access_expires_at = ${accessExpirySql('g.granted_at')}
     from free_access_codes c where c.id = g.free_code_id and g.id = ?
     returning g.id, g.granted_at, g.access_expires_at`,
    [grantId],
  );
  return rows[0]!;
}

/** 1-based position of the grant among its code's grants by (granted_at, id): the seat it holds. */
async function rankGrant(trx: Knex.Transaction, grantId: string): Promise<number> {
  const { rows } = await trx.raw<{ rows: { rank: number }[] }>(
    `select count(*)::int as rank from free_access_grants o join free_access_grants me on me.id = ?
     where o.free_code_id = me.free_code_id and (o.granted_at, o.id) <= (me.granted_at, me.id)`,
    [grantId],
  );
  return rows[0]!.rank;
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

const FREE_CODE_COLUMNS = [
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

export interface NewFreeCode {
  appId: string;
  code: string;
  name?: string | null;
  entitlement?: string;
  seatLimit?: number | null;
  years?: number | null;
  days?: number | null;
  expiresAt?: string | null;
  customData?: unknown;
  blocked?: boolean;
  createdBy: string;
}

/** undefined when the code is taken in the app (by a creator code, even a removed one, or another free code). */
export async function createFreeCode(db: Knex, c: NewFreeCode): Promise<FreeCodeView | undefined> {
  try {
    return await db.transaction(async (trx) => {
      // Serialises code creation per app against the creator-code check below.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`codes:${c.appId}`]);
      const creator = await trx('creator_codes').where({ app_id: c.appId, code: c.code }).first('id');
      if (creator) return undefined;
      const [row] = await trx('free_access_codes')
        .insert({
          app_id: c.appId,
          code: c.code,
          name: c.name ?? null,
          entitlement: c.entitlement ?? 'premium',
          seat_limit: c.seatLimit ?? null,
          access_duration_years: c.years ?? null,
          access_duration_days: c.days ?? null,
          expires_at: c.expiresAt ?? null,
          custom_data: c.customData === undefined ? null : JSON.stringify(c.customData),
          blocked: c.blocked ?? false,
          blocked_at: c.blocked ? trx.fn.now() : null,
          created_by: c.createdBy,
        })
        .returning<FreeCodeView[]>(FREE_CODE_COLUMNS);
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'free_access_codes_app_code_uq')) return undefined;
    throw err;
  }
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

/**
 * Blocks (or unblocks) a code of the app. A blocked code redeems no more and every holder's access ends at the next
 * access check (isFreeCodeLive); `blocked_at` keeps the first block's time. undefined when the app has no such code.
 */
export async function setFreeCodeBlocked(db: Knex, appId: string, id: string, blocked: boolean): Promise<FreeCodeView | undefined> {
  const [row] = await db('free_access_codes')
    .where({ id, app_id: appId })
    .update({ blocked, blocked_at: blocked ? db.raw('coalesce(blocked_at, now())') : null })
    .returning<FreeCodeView[]>(FREE_CODE_COLUMNS);
  return row;
}
