// The conversion's writes (reads in db/conversions.ts): created by its first purchase event, locked and updated by
// its conversion workflow's activity only (actions/purchase-event/).
import type { Knex } from 'knex';
import type { Environment, ConversionStatus, ConversionRow } from '../schema/types.js';
import type { PaidPeriod } from '../lib/commission-basis.js';
import type { CampaignTerms } from './campaigns.js';
import type { WithStatement } from './purchase-events-writes.js';
import type { Conversion } from './user-attributions.js';
import { preparedRows } from './prepared.js';

export async function findConversionForUpdate(db: Knex, appId: string, conversionKey: string): Promise<ConversionRow | undefined> {
  return db('conversions').where({ app_id: appId, conversion_key: conversionKey }).forUpdate().first<ConversionRow | undefined>();
}

/**
 * The conversion locked, with its campaign's terms read in the same statement (the purchase activity's first read:
 * a paid event needs both). `terms` is null when the conversion has no campaign.
 */
export async function findConversionWithTermsForUpdate(
  db: Knex,
  appId: string,
  conversionKey: string,
): Promise<{ conversion: ConversionRow; terms: CampaignTerms | null; paidPeriods: PaidPeriod[] } | undefined> {
  const [row] = await preparedRows<ConversionRow & { terms: CampaignTerms | null; paid_periods: [number, number][] | null }>(
    db,
    db('conversions as c')
      .leftJoin('campaigns as k', 'k.id', 'c.campaign_id')
      .leftJoin('apps as a', 'a.id', 'k.app_id')
      .where({ 'c.app_id': appId, 'c.conversion_key': conversionKey })
      .forUpdate('c')
      .limit(1)
      .select(
        'c.*',
        db.raw(`case when k.id is null then null else json_build_object(
      'commission_percentage', k.commission_percentage::text, 'holding_period_days', k.holding_period_days,
      'has_bonus_rules', exists (select 1 from bonus_rules r where r.campaign_id = k.id and r.active),
      'commission_basis', k.commission_basis, 'apple_small_business_program', a.apple_small_business_program,
      'google_play_fee_tier_enrolled', a.google_play_fee_tier_enrolled) end as terms`),
        // Apple's second-year fee: the subscription's paid periods so far, read only where an estimate needs them.
        db.raw(`case when k.commission_basis = 'proceeds' and c.store = 'APP_STORE' and c.kind = 'subscription'
      and not a.apple_small_business_program then (${PAID_PERIODS_SQL}) end as paid_periods`),
      ),
  );
  if (!row) return undefined;
  const { terms, paid_periods: periods, ...conversion } = row;
  return { conversion, terms, paidPeriods: (periods ?? []).map(([startMs, endMs]) => ({ startMs, endMs })) };
}

/** The paid periods (purchase to expiry, epoch ms) of conversion `c` recorded so far, as a JSON array of pairs. */
const PAID_PERIODS_SQL = `select coalesce(json_agg(json_build_array(
      (extract(epoch from p.purchased_at) * 1000)::bigint, (extract(epoch from p.expires_at) * 1000)::bigint)), '[]')
    from purchase_events p where p.conversion_id = c.id and p.processing_status = 'processed'
      and p.event_type in ('INITIAL_PURCHASE', 'RENEWAL') and p.price_usd_micros > 0
      and p.period_type is distinct from 'TRIAL' and p.purchased_at is not null and p.expires_at is not null`;

export interface NewConversion {
  appId: string;
  conversionKey: string;
  kind: 'subscription' | 'one_time';
  attribution: Conversion | null;
  appUserId: string | null;
  productId: string | null;
  store: string | null;
  environment: Environment;
  status: ConversionStatus;
  periodType: string | null;
  trial: boolean;
  firstPurchaseEventId: string;
  workflowId: string;
  /** When it was opened: now unless the demo history says (IngestEvent.occurredAtMs). */
  at?: Date;
}

export async function createConversion(db: Knex, c: NewConversion): Promise<ConversionRow> {
  const a = c.attribution;
  const [row] = await preparedRows<ConversionRow>(
    db,
    db('conversions')
      .insert({
        app_id: c.appId,
        org_id: db.raw('(select org_id from apps where id = ?)', [c.appId]),
        conversion_key: c.conversionKey,
        kind: c.kind,
        attributed: a !== null,
        campaign_id: a?.campaignId ?? null,
        creator_code_id: a?.creatorCodeId ?? null,
        creator_id: a?.creatorId ?? null,
        referral_code: a?.referralCode ?? null,
        attribution_method: a?.method ?? null,
        offer_code_id: a?.offerCodeId ?? null,
        attributed_at: a ? (c.at ?? db.fn.now()) : null,
        app_user_id: c.appUserId,
        product_id: c.productId,
        store: c.store,
        environment: c.environment,
        is_test: c.environment !== 'PRODUCTION',
        status: c.status,
        period_type: c.periodType,
        trial: c.trial,
        first_purchase_event_id: c.firstPurchaseEventId,
        workflow_id: c.workflowId,
        ...(c.at ? { created_at: c.at } : {}),
      })
      .returning('*'),
  );
  return row!;
}

export async function updateConversion(db: Knex, id: string, patch: Record<string, unknown>): Promise<ConversionRow> {
  const [row] = await db('conversions').where('id', id).update(patch).returning<ConversionRow[]>('*');
  return row!;
}

const CONVERSION_UPDATED = 'conversion_updated';

/**
 * updateConversion as a `with` statement, for a statement the caller sends anyway, and the column (named `as`) that
 * statement returns to answer the conversion's status after the update.
 */
export function conversionUpdateCte(
  db: Knex,
  id: string,
  patch: Record<string, unknown>,
  as: string,
): { cte: WithStatement; status: Knex.Raw } {
  const { sql, bindings } = db('conversions').where('id', id).update(patch).returning('status').toSQL();
  return { cte: { name: CONVERSION_UPDATED, sql, bindings }, status: db.raw(`(select status from ${CONVERSION_UPDATED}) as ??`, [as]) };
}
