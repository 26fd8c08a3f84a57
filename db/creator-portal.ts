// The creator portal's reads (docs/creator-portal.md): every query is keyed by the signed-in creator's id, so another
// creator's or organization's row is simply not found. What a creator sees of a purchase is its product, date and
// amount: end users' ids never leave this module.
import type { Knex } from 'knex';
import type { StoredBasis } from '../lib/commission-basis.js';
import { isAccountReady } from '../lib/payout-readiness.js';
import type { PayoutRow } from '../schema/types.js';
import { findPayoutAccount, stateOfRow } from './payout-accounts.js';

export interface CreatorCampaign {
  campaign_id: string;
  campaign_name: string;
  campaign_status: string;
  commission_percentage: string;
  holding_period_days: number;
  org_id: string;
  org_name: string;
  app_id: string;
  app_name: string;
  app_slug: string;
  code: string;
  code_status: string;
  joined_at: Date;
}

const campaigns = (db: Knex, creatorId: string) =>
  db('creator_codes as cc')
    .join('campaigns as k', 'k.id', 'cc.campaign_id')
    .join('apps as a', 'a.id', 'cc.app_id')
    .join('organizations as o', 'o.id', 'k.org_id')
    .where('cc.creator_id', creatorId)
    .select<CreatorCampaign[]>(
      'k.id as campaign_id',
      'k.name as campaign_name',
      'k.status as campaign_status',
      'k.commission_percentage',
      'k.holding_period_days',
      'o.id as org_id',
      'o.name as org_name',
      'a.id as app_id',
      'a.name as app_name',
      'a.slug as app_slug',
      'cc.code',
      'cc.status as code_status',
      'cc.joined_at',
    );

/** Every campaign the creator joined, across organizations (organization, then join order). */
export async function listCreatorCampaigns(db: Knex, creatorId: string): Promise<CreatorCampaign[]> {
  return campaigns(db, creatorId).orderBy([{ column: 'o.name' }, { column: 'o.id' }, { column: 'cc.joined_at' }, { column: 'cc.id' }]);
}

/** One campaign of the creator; undefined for any campaign they did not join. */
export async function findCreatorCampaign(db: Knex, creatorId: string, campaignId: string): Promise<CreatorCampaign | undefined> {
  return campaigns(db, creatorId).where('k.id', campaignId).first();
}

export interface CreatorCommissionLine {
  id: string;
  product_id: string | null;
  created_at: Date;
  commission_micros: number;
  status: string;
  payable_at: Date | null;
  paid_at: Date | null;
  reversed_at: Date | null;
  /** The review's mark beside the status (null: never reviewed): lib/creator-commission-state.ts words it neutrally. */
  review_state: string | null;
  payout_id: string | null;
  org_name: string;
  campaign_name: string;
  /** What partial refunds after the release took back of it (its reversal rows; 0 when none). */
  clawed_back_micros: number;
  /** Of its clawbacks, what no payout has recovered yet (0 when none, or all was taken). */
  clawback_outstanding_micros: number;
  /** Read with the lines: whether the creator's payout account is ready now (lib/payout-readiness.ts). */
  account_ready: boolean;
  /** The basis it was computed on and the amounts behind it (lib/commission-basis.ts). */
  basis: StoredBasis;
}

const commissionLines = (db: Knex) =>
  db('commissions as c')
    .join('purchase_events as e', 'e.id', 'c.purchase_event_id')
    .join('organizations as o', 'o.id', 'c.org_id')
    .join('campaigns as k', 'k.id', 'c.campaign_id')
    .where({ 'c.kind': 'earn', 'c.environment': 'PRODUCTION' })
    .select(
      'c.id',
      'e.product_id',
      'c.created_at',
      'c.commission_micros',
      'c.status',
      'c.payable_at',
      'c.paid_at',
      'c.reversed_at',
      'c.review_state',
      'c.payout_id',
      'o.name as org_name',
      'k.name as campaign_name',
      db.raw(`json_build_object('basis', c.commission_basis, 'precision', c.basis_precision, 'gross', c.basis_gross_micros,
        'tax', c.basis_tax_micros, 'fee', c.basis_store_fee_micros, 'base', c.basis_base_micros) as basis`),
      db.raw(
        '(select coalesce(-sum(r.commission_micros), 0) from commissions r where r.reverses_commission_id = c.id) as clawed_back_micros',
      ),
      db.raw(
        '(select coalesce(sum(b.amount_micros - b.recovered_micros), 0) from ' +
          'clawbacks b where b.commission_id = c.id) as clawback_outstanding_micros',
      ),
    );

type RawLine = Omit<CreatorCommissionLine, 'account_ready'>;

/** The lines with their amounts as numbers and the creator's account readiness as it is now. */
async function withFacts(db: Knex, creatorId: string, rows: RawLine[]): Promise<CreatorCommissionLine[]> {
  const account = rows.length ? await findPayoutAccount(db, creatorId) : undefined;
  const ready = account ? isAccountReady(stateOfRow(account)) : false;
  return rows.map((r) => ({
    ...r,
    commission_micros: Number(r.commission_micros),
    clawed_back_micros: Number(r.clawed_back_micros),
    clawback_outstanding_micros: Number(r.clawback_outstanding_micros),
    account_ready: ready,
  }));
}

/** The creator's production commissions in the campaign, newest first. */
export async function listCreatorCommissions(
  db: Knex,
  creatorId: string,
  campaignId: string,
  limit = 500,
): Promise<CreatorCommissionLine[]> {
  const rows = await commissionLines(db)
    .where({ 'c.creator_id': creatorId, 'c.campaign_id': campaignId })
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ])
    .limit(limit);
  return withFacts(db, creatorId, rows as RawLine[]);
}

export interface CreatorBonusRule {
  id: string;
  name: string;
  threshold_conversions: number;
  bonus_micros: number;
  award_status: string | null;
  award_micros: number | null;
}

/** The campaign's active bonus rules with this creator's award of each, when earned. */
export async function listCreatorBonusRules(db: Knex, creatorId: string, campaignId: string): Promise<CreatorBonusRule[]> {
  const rows = await db('bonus_rules as r')
    .leftJoin('bonus_awards as b', function joinAward() {
      this.on('b.bonus_rule_id', '=', 'r.id').andOn('b.creator_id', '=', db.raw('?', [creatorId]));
    })
    .where({ 'r.campaign_id': campaignId, 'r.active': true })
    .orderBy('r.threshold_conversions')
    .select('r.id', 'r.name', 'r.threshold_conversions', 'r.bonus_micros', 'b.status as award_status', 'b.amount_micros as award_micros');
  return (rows as CreatorBonusRule[]).map((r) => ({
    ...r,
    bonus_micros: Number(r.bonus_micros),
    award_micros: r.award_micros === null ? null : Number(r.award_micros),
  }));
}

/** The creator's payouts from one organization, newest first. */
export async function listCreatorPayouts(db: Knex, creatorId: string, orgId: string): Promise<PayoutRow[]> {
  return db('payouts')
    .where({ creator_id: creatorId, org_id: orgId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select<PayoutRow[]>('*');
}

export interface CreatorStatement {
  payout: PayoutRow & { org_name: string };
  commissions: CreatorCommissionLine[];
  awards: { id: string; campaign_name: string; threshold_conversions: number; amount_micros: number }[];
  clawbacks: { id: string; product_id: string | null; campaign_name: string; refunded_at: Date; micros: number }[];
}

/** One payout of the creator with its lines (commissions, awards, clawbacks netted); undefined for anyone else's. */
export async function findCreatorStatement(db: Knex, creatorId: string, payoutId: string): Promise<CreatorStatement | undefined> {
  const payout = await db('payouts as p')
    .join('organizations as o', 'o.id', 'p.org_id')
    .where({ 'p.id': payoutId, 'p.creator_id': creatorId })
    .first<(PayoutRow & { org_name: string }) | undefined>('p.*', 'o.name as org_name');
  if (!payout) return undefined;
  // A returned payout's lines went back to payable (payout_id cleared, db/payout-transfers.ts returnPayout); its
  // payout_return ledger entries still name them, so its statement lists what it held and the figures add up.
  const inPayout = (q: Knex.QueryBuilder, idColumn: string, payoutColumn: string, ledgerColumn: 'commission_id' | 'bonus_award_id') => {
    if (payout.transfer_status !== 'returned') void q.where(payoutColumn, payoutId);
    else
      void q.whereIn(
        idColumn,
        db('wallet_ledger')
          .where({ org_id: payout.org_id, entry_type: 'payout_return', external_ref: payoutId })
          .whereNotNull(ledgerColumn)
          .select(ledgerColumn),
      );
  };
  const [commissions, awards, clawbacks] = await Promise.all([
    commissionLines(db)
      .where((q) => {
        inPayout(q, 'c.id', 'c.payout_id', 'commission_id');
      })
      .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }]),
    db('bonus_awards as b')
      .join('campaigns as k', 'k.id', 'b.campaign_id')
      .where((q) => {
        inPayout(q, 'b.id', 'b.payout_id', 'bonus_award_id');
      })
      .orderBy('b.earned_at')
      .select('b.id', 'k.name as campaign_name', 'b.threshold_conversions', 'b.amount_micros'),
    db('payout_clawback_recoveries as r')
      .join('clawbacks as cb', 'cb.id', 'r.clawback_id')
      .join('commissions as c', 'c.id', 'cb.commission_id')
      .join('purchase_events as e', 'e.id', 'c.purchase_event_id')
      .join('campaigns as k', 'k.id', 'c.campaign_id')
      .where('r.payout_id', payoutId)
      .orderBy('cb.created_at')
      .select('cb.id', 'e.product_id', 'k.name as campaign_name', 'cb.created_at as refunded_at', 'r.micros'),
  ]);
  return {
    payout,
    commissions: await withFacts(db, creatorId, commissions as RawLine[]),
    awards: (awards as CreatorStatement['awards']).map((a) => ({ ...a, amount_micros: Number(a.amount_micros) })),
    clawbacks: (clawbacks as CreatorStatement['clawbacks']).map((c) => ({ ...c, micros: Number(c.micros) })),
  };
}

/** A featured asset of an app whose campaign the creator joined; undefined otherwise. */
export async function findCreatorAsset(
  db: Knex,
  creatorId: string,
  assetId: string,
): Promise<{ id: string; storage_key: string | null; mime_type: string | null; url: string | null } | undefined> {
  return db('assets as s')
    .where({ 's.id': assetId, 's.featured': true })
    .whereExists((q) => {
      void q.select(db.raw('1')).from('creator_codes as cc').whereRaw('cc.app_id = s.app_id').andWhere('cc.creator_id', creatorId);
    })
    .first('s.id', 's.storage_key', 's.mime_type', 's.url');
}
