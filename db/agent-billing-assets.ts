// Agent API reads and writes of bonus awards, free-access codes, marketing assets and the single-use record of
// signed dashboard links. Callers check tenancy (api/agent/principal.ts); every list here is filtered by org ids.
import type { Knex } from 'knex';
import { isUniqueViolation } from '../lib/pg-errors.js';
import { appendLedgerEntry } from './wallet-ledger.js';

// ---- bonus awards ----------------------------------------------------------------------------------------------

export interface BonusAwardView {
  id: string; org_id: string; campaign_id: string; campaign_name: string; bonus_rule_id: string; status: string;
  amount_micros: number; threshold_conversions: number; progress_count: number; fraud_flags: unknown;
  earned_at: Date; reviewed_at: Date | null; reviewed_by: string | null; review_note: string | null; paid_at: Date | null;
  creator_id: string; creator_name: string; creator_social_handle: string | null;
}

const awardQuery = (db: Knex) => db('bonus_awards as b')
  .join('creators as cr', 'cr.id', 'b.creator_id')
  .join('campaigns as c', 'c.id', 'b.campaign_id')
  .select<BonusAwardView[]>(
    'b.id', 'b.org_id', 'b.campaign_id', 'c.name as campaign_name', 'b.bonus_rule_id', 'b.status', 'b.amount_micros',
    'b.threshold_conversions', 'b.progress_count', 'b.fraud_flags', 'b.earned_at', 'b.reviewed_at', 'b.reviewed_by',
    'b.review_note', 'b.paid_at', 'cr.id as creator_id', 'cr.name as creator_name', 'cr.social_handle as creator_social_handle',
  );

export async function listBonusAwards(db: Knex, orgIds: readonly string[], f: { status?: string; campaignId?: string } = {}): Promise<BonusAwardView[]> {
  if (orgIds.length === 0) return [];
  const q = awardQuery(db).whereIn('b.org_id', orgIds).orderBy([{ column: 'b.earned_at', order: 'desc' }, { column: 'b.id', order: 'asc' }]);
  if (f.status) void q.where('b.status', f.status);
  if (f.campaignId) void q.where('b.campaign_id', f.campaignId);
  return q;
}

export async function findBonusAward(db: Knex, id: string): Promise<BonusAwardView | undefined> {
  const rows = await awardQuery(db).where('b.id', id);
  return rows[0];
}

export type ReviewOutcome = { kind: 'reviewed' } | { kind: 'conflict'; status: string } | { kind: 'missing' };

/**
 * Approve or void an award still in `earned` (before payout). Approval earmarks the amount in the wallet (a
 * `reserve` entry, migration 0007's ledger rules), written once per award under the organization's lock.
 */
export async function reviewBonusAward(db: Knex, r: { id: string; decision: 'approve' | 'void'; note?: string; reviewedBy: string }): Promise<ReviewOutcome> {
  return db.transaction(async (trx) => {
    const award = await trx('bonus_awards').where('id', r.id).forUpdate()
      .first<{ id: string; org_id: string; status: string; amount_micros: string | number } | undefined>('id', 'org_id', 'status', 'amount_micros');
    if (!award) return { kind: 'missing' };
    if (award.status !== 'earned') return { kind: 'conflict', status: award.status };
    const status = r.decision === 'approve' ? 'approved' : 'voided';
    await trx('bonus_awards').where('id', r.id)
      .update({ status, reviewed_at: trx.fn.now(), reviewed_by: r.reviewedBy, review_note: r.note ?? null });
    const amount = Number(award.amount_micros);
    if (status === 'approved' && amount > 0) {
      await trx('organizations').where('id', award.org_id).forUpdate().first('id');
      await appendLedgerEntry(trx, {
        orgId: award.org_id, entryType: 'reserve', balanceDeltaMicros: 0, reservedDeltaMicros: amount,
        idempotencyKey: `reserve:bonus:${award.id}`, bonusAwardId: award.id, memo: 'bonus approved', createdBy: r.reviewedBy,
      });
    }
    return { kind: 'reviewed' };
  });
}

// ---- free-access codes -----------------------------------------------------------------------------------------

export interface FreeCodeView {
  id: string; app_id: string; code: string; name: string | null; entitlement: string;
  access_duration_years: number | null; access_duration_days: number | null; expires_at: Date | null;
  seat_limit: number | null; seats_used: number; blocked: boolean; custom_data: unknown; created_by: string | null;
  created_at: Date; updated_at: Date;
}

const FREE_CODE_COLUMNS = [
  'id', 'app_id', 'code', 'name', 'entitlement', 'access_duration_years', 'access_duration_days', 'expires_at',
  'seat_limit', 'seats_used', 'blocked', 'custom_data', 'created_by', 'created_at', 'updated_at',
];

export async function listFreeCodes(db: Knex, appId: string): Promise<FreeCodeView[]> {
  return db('free_access_codes').where('app_id', appId).orderBy([{ column: 'created_at' }, { column: 'id' }]).select<FreeCodeView[]>(FREE_CODE_COLUMNS);
}

export interface NewFreeCode {
  appId: string; code: string; name?: string | null; entitlement?: string; seatLimit?: number | null;
  years?: number | null; days?: number | null; expiresAt?: string | null; customData?: unknown; blocked?: boolean; createdBy: string;
}

/** undefined when the code is taken in the app (by a creator code, even a removed one, or another free code). */
export async function createFreeCode(db: Knex, c: NewFreeCode): Promise<FreeCodeView | undefined> {
  try {
    return await db.transaction(async (trx) => {
      // Serialises code creation per app against the creator-code check below.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`codes:${c.appId}`]);
      const creator = await trx('creator_codes').where({ app_id: c.appId, code: c.code }).first('id');
      if (creator) return undefined;
      const [row] = await trx('free_access_codes').insert({
        app_id: c.appId, code: c.code, name: c.name ?? null, entitlement: c.entitlement ?? 'premium',
        seat_limit: c.seatLimit ?? null, access_duration_years: c.years ?? null, access_duration_days: c.days ?? null,
        expires_at: c.expiresAt ?? null, custom_data: c.customData === undefined ? null : JSON.stringify(c.customData),
        blocked: c.blocked ?? false, blocked_at: c.blocked ? trx.fn.now() : null, created_by: c.createdBy,
      }).returning<FreeCodeView[]>(FREE_CODE_COLUMNS);
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'free_access_codes_app_code_uq')) return undefined;
    throw err;
  }
}

// ---- assets ----------------------------------------------------------------------------------------------------

const ASSET_COLUMNS = [
  'id', 'app_id', 'org_id', 'type', 'category', 'title', 'description', 'url', 'storage_key', 'mime_type', 'size_bytes',
  'featured', 'uploaded_by', 'created_at', 'updated_at',
] as const;

export type AssetRow = Record<(typeof ASSET_COLUMNS)[number], unknown> & { id: string; org_id: string; app_id: string };

export async function listAssets(db: Knex, appId: string, f: { type?: string; category?: string } = {}): Promise<AssetRow[]> {
  const q = db('assets').where('app_id', appId).orderBy([{ column: 'featured', order: 'desc' }, { column: 'created_at', order: 'desc' }, { column: 'id' }]);
  if (f.type) void q.where('type', f.type);
  if (f.category) void q.where('category', f.category);
  return q.select<AssetRow[]>(ASSET_COLUMNS);
}

export async function findAsset(db: Knex, id: string): Promise<AssetRow | undefined> {
  return db('assets').where('id', id).first<AssetRow | undefined>(ASSET_COLUMNS);
}

export async function setAssetFeatured(db: Knex, id: string, featured: boolean): Promise<AssetRow | undefined> {
  const [row] = await db('assets').where('id', id).update({ featured }).returning<AssetRow[]>(ASSET_COLUMNS);
  return row;
}

// ---- signed link uses ------------------------------------------------------------------------------------------

export async function isSignedLinkUsed(db: Knex, nonce: string): Promise<boolean> {
  return (await db('signed_link_uses').where('nonce', nonce).first('nonce')) !== undefined;
}

/** Records the nonce; false when it was spent already (the link is single use). */
export async function spendSignedLink(db: Knex | Knex.Transaction, u: { nonce: string; purpose: string; orgId: string; expiresAt: Date }): Promise<boolean> {
  const rows = await db('signed_link_uses').insert({ nonce: u.nonce, purpose: u.purpose, org_id: u.orgId, expires_at: u.expiresAt })
    .onConflict('nonce').ignore().returning('nonce');
  return rows.length === 1;
}
