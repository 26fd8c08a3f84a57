// The statements of free-access codes (reads in db/free-access.ts; the rules that combine them, a redemption under
// the code's row lock and a creation checked against creator codes, in actions/free-codes.ts).
import type { Knex } from 'knex';
import type { FreeAccessRedemptionRow } from '../schema/types.js';
import { CODE_COLUMNS, FREE_CODE_COLUMNS, type FreeAccessCode, type FreeCodeView, type GrantSummary } from './free-access.js';

/** The app's code, locked FOR UPDATE until the transaction ends: redemptions of one code run one after another. */
export async function lockFreeCode(trx: Knex.Transaction, appId: string, freeCodeId: string): Promise<FreeAccessCode | undefined> {
  return trx('free_access_codes').where({ id: freeCodeId, app_id: appId }).forUpdate().first<FreeAccessCode | undefined>(CODE_COLUMNS);
}

export async function findGrantId(db: Knex, freeCodeId: string, appUserId: string): Promise<string | undefined> {
  const row = await db('free_access_grants')
    .where({ free_code_id: freeCodeId, app_user_id: appUserId })
    .first<{ id: string } | undefined>('id');
  return row?.id;
}

export async function takeSeat(db: Knex, freeCodeId: string): Promise<void> {
  await db('free_access_codes').where('id', freeCodeId).increment('seats_used', 1);
}

export async function insertRedemption(db: Knex, row: Omit<FreeAccessRedemptionRow, 'id' | 'created_at'>): Promise<void> {
  await db('free_access_redemptions').insert(row);
}

// Duration runs from the first grant (both null = open-ended) and never past the code's own expiry; PostgreSQL's
// least() ignores nulls, so an open-ended grant of an expiring code ends with the code.
const accessExpirySql = (grantedAt: string): string => `least(
  case when c.access_duration_years is null and c.access_duration_days is null then null
       else ${grantedAt} + make_interval(years => coalesce(c.access_duration_years, 0), days => coalesce(c.access_duration_days, 0)) end,
  c.expires_at)`;

// clock_timestamp(), not now(): now() is the transaction's start, which can precede the lock wait, and granted_at
// must follow the order in which seats were actually taken (it ranks holders against the seat limit).
export async function insertGrant(db: Knex, freeCodeId: string, appUserId: string): Promise<GrantSummary> {
  const { rows } = await db.raw<{ rows: GrantSummary[] }>(
    `insert into free_access_grants (free_code_id, app_id, app_user_id, granted_at, last_redeemed_at, access_expires_at)
     select c.id, c.app_id, ?, t.ts, t.ts, ${accessExpirySql('t.ts')}
     from free_access_codes c, (select clock_timestamp() as ts) t where c.id = ?
     returning id, granted_at, access_expires_at`,
    [appUserId, freeCodeId],
  );
  return rows[0]!;
}

/** Re-grant: counted and logged, expiry recomputed from the first grant with the code's current settings. */
export async function renewGrant(db: Knex, grantId: string): Promise<GrantSummary> {
  const { rows } = await db.raw<{ rows: GrantSummary[] }>(
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
export async function rankGrant(db: Knex, grantId: string): Promise<number> {
  const { rows } = await db.raw<{ rows: { rank: number }[] }>(
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

/** Serialises code creation per app against the creator-code check that precedes the insert. */
export async function lockCodesOfApp(trx: Knex.Transaction, appId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`codes:${appId}`]);
}

export async function insertFreeCode(db: Knex, c: NewFreeCode): Promise<FreeCodeView> {
  const [row] = await db('free_access_codes')
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
      blocked_at: c.blocked ? db.fn.now() : null,
      created_by: c.createdBy,
    })
    .returning<FreeCodeView[]>(FREE_CODE_COLUMNS);
  return row!;
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
