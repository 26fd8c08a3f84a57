// The writes of free-access codes (reads in db/free-access.ts): a redemption under the code's row lock (seats,
// renewal, rank), a code created, a code blocked or unblocked. Called through actions/free-codes.ts.
import type { Knex } from 'knex';
import { isUniqueViolation } from '../errors/pg-errors.js';
import {
  CODE_COLUMNS,
  FREE_CODE_COLUMNS,
  isFreeCodeLive,
  isFreeCodeRedeemable,
  type FreeAccessCode,
  type FreeCodeView,
  type GrantSummary,
} from './free-access.js';

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
