// Conversions: one per store identity (conversion key), written only by its conversion workflow's activity.
import type { Conversion } from './user-attributions.js';
import type { Knex } from 'knex';

import type { Environment, ConversionStatus, ConversionRow } from '../schema/types.js';
import type { PaidPeriod } from '../lib/commission-basis.js';
import type { CampaignTerms } from './campaigns.js';
import type { WithStatement } from './purchase-events-writes.js';
import { preparedRows } from './prepared.js';

export async function findConversion(db: Knex, id: string): Promise<ConversionRow | undefined> {
  return db('conversions').where('id', id).first<ConversionRow | undefined>();
}

/** The conversion a workflow id names, as PostgreSQL records it; undefined when it was never created. */
export async function findConversionByKey(db: Knex, appId: string, conversionKey: string): Promise<ConversionRow | undefined> {
  return db('conversions').where({ app_id: appId, conversion_key: conversionKey }).first<ConversionRow | undefined>();
}

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

/**
 * A refund names the refunded transaction: when that transaction opened a one-time conversion, that is the
 * conversion to refund (its key is the transaction id, whatever original transaction id the event carries).
 */
export async function findOneTimeConversionKey(db: Knex, appId: string, transactionId: string): Promise<string | undefined> {
  const row = await db('conversions')
    .where({ app_id: appId, conversion_key: transactionId, kind: 'one_time' })
    .first<{ conversion_key: string } | undefined>('conversion_key');
  return row?.conversion_key;
}

/** The order ids of the paid periods recorded for a Google Play subscription (its conversion keyed on the purchase token). */
export async function recordedOrdersOfSubscription(db: Knex, appId: string, purchaseToken: string): Promise<string[]> {
  return db('purchase_events as e')
    .join('conversions as c', 'c.id', 'e.conversion_id')
    .where({ 'c.app_id': appId, 'c.conversion_key': purchaseToken, 'c.kind': 'subscription' })
    .whereIn('e.event_type', ['INITIAL_PURCHASE', 'RENEWAL'])
    .whereNotNull('e.transaction_id')
    .distinct()
    .pluck<string[]>('e.transaction_id');
}
