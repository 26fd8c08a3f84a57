// What arrived for an app, newest first (agent API events/recent and verify-user-conversions): custom SDK events and
// the purchase event log with its attribution flags. No amounts, except for the dashboard (`amounts`, and the
// dashboard's events table): price, commission and whether the code carried matched a creator.
import type { Knex } from 'knex';
import type { StoredBasis } from '../lib/commission-basis.js';
import { SANDBOX_ENVIRONMENTS, type CommissionReviewState } from '../schema/types.js';
import { apiEnvironment, apiEnvironmentOrNull, type ApiEnvironment } from '../lib/api-environment.js';
import type { TablePage, TableSpec, TableView } from '../lib/table-query.js';
import { pageOf, type TableWindow } from './table-page.js';

/** The filter of events/recent: SANDBOX means every sandbox environment (SANDBOX, XCODE, LOCAL_TESTING). */
export type EnvironmentFilter = 'SANDBOX' | 'PRODUCTION';

const environmentsOf = (filter: EnvironmentFilter): readonly string[] => (filter === 'PRODUCTION' ? ['PRODUCTION'] : SANDBOX_ENVIRONMENTS);

/**
 * `environment` in the API's form (SANDBOX or PRODUCTION: lib/api-environment.ts), the one place these reads turn a
 * stored value into it, so events/recent, verify-user-conversions, the tool server and the dashboard's stream agree;
 * `store_environment` keeps what the store said (XCODE, LOCAL_TESTING) for the dashboard's note and nothing else.
 */
interface EnvironmentFields {
  environment: ApiEnvironment | null;
  store_environment: string | null;
}

function inApiForm<T extends { environment: string | null }>(row: T): Omit<T, 'environment'> & EnvironmentFields {
  return { ...row, environment: apiEnvironmentOrNull(row.environment), store_environment: row.environment };
}

export interface SdkEventView extends EnvironmentFields {
  event_id: string;
  event_type: string;
  app_user_id: string;
  referral_code: string | null;
  platform: string | null;
  created_at: Date;
}

/**
 * Custom SDK events. They are stored once each (the event endpoint drops repeats). Clients send no environment, so
 * the environment filter keeps every event without one and applies only to events that carry one.
 */
export async function listRecentSdkEvents(
  db: Knex,
  appId: string,
  opts: { environment?: EnvironmentFilter; eventIds?: readonly string[]; limit: number },
): Promise<SdkEventView[]> {
  const q = db('sdk_events').where('app_id', appId).orderBy('created_at', 'desc').limit(opts.limit);
  if (opts.eventIds) void q.whereIn('event_id', opts.eventIds);
  if (opts.environment) void q.where((w) => void w.whereNull('environment').orWhereIn('environment', environmentsOf(opts.environment!)));
  const rows = await q.select<StoredEnvironment<SdkEventView>[]>(
    'event_id',
    'event_type',
    'app_user_id',
    'referral_code',
    'platform',
    'environment',
    'created_at',
  );
  return rows.map(inApiForm);
}

/** A row as read, before `inApiForm`: the stored environment alone. */
type StoredEnvironment<T> = Omit<T, keyof EnvironmentFields> & { environment: string | null };

export interface PurchaseEventView extends EnvironmentFields {
  event_id: string;
  event_type: string;
  source: string;
  app_user_id: string | null;
  product_id: string | null;
  attributed: boolean;
  organic: boolean;
  referral_code: string | null;
  conversion_id: string | null;
  processing_status: string;
  error: string | null;
  received_at: Date;
  /** How the event's conversion was attributed (`offer_code`: a creator's store offer code), null when not. */
  attribution_method: string | null;
  /**
   * Dashboard only (`amounts`): the purchase's price in USD, the commission written for it (net), and whether a creator code of the app is
   * `referral_code`.
   */
  price_usd_micros?: number | null;
  commission_micros?: number | null;
  /** Dashboard only: the basis of the event's (first) commission and the amounts behind it; null without one. */
  commission_basis?: StoredBasis | null;
  code_known?: boolean;
  /**
   * Dashboard only: the review state of the event's commission under review (held before flagged, then the
   * decision: approved or voided); null when none is.
   */
  review_state?: CommissionReviewState | null;
}

interface PurchaseLogFilter {
  environment?: EnvironmentFilter;
  appUserId?: string;
  eventIds?: readonly string[];
  amounts?: boolean;
}

function purchaseEventsQuery(db: Knex, appId: string, opts: PurchaseLogFilter): Knex.QueryBuilder {
  const q = db('purchase_events').where('app_id', appId);
  if (opts.eventIds) void q.whereIn('id', opts.eventIds);
  if (opts.environment) void q.whereIn('environment', environmentsOf(opts.environment));
  if (opts.appUserId) void q.where('app_user_id', opts.appUserId);
  void q.select(
    'id as event_id',
    'event_type',
    'source',
    'environment',
    'app_user_id',
    'product_id',
    'attributed',
    'organic',
    'referral_code',
    'conversion_id',
    'processing_status',
    'error',
    'received_at',
    db.raw('(select v.attribution_method from conversions v where v.id = purchase_events.conversion_id) as attribution_method'),
  );
  if (opts.amounts) {
    void q.select(
      'price_usd_micros',
      db.raw(
        `(select sum(m.commission_micros) from commissions m where ` +
          `m.purchase_event_id = purchase_events.id)::bigint as commission_micros,
      (select json_build_object('basis', m.commission_basis, 'precision', m.basis_precision, 'gross', m.basis_gross_micros,
        'tax', m.basis_tax_micros, 'fee', m.basis_store_fee_micros, 'base', m.basis_base_micros) from commissions m
        where m.purchase_event_id = purchase_events.id order by m.created_at, m.id limit 1) as commission_basis,
      exists (select 1 from creator_codes cc where cc.app_id = ` +
          `purchase_events.app_id and cc.code = purchase_events.referral_code) as code_known,
      (select m.review_state from commissions m where m.purchase_event_id = purchase_events.id and m.review_state is not null
        order by array_position(array['held', 'flagged', 'voided', 'approved']::text[], m.review_state::text) limit 1) as review_state`,
      ),
    );
  }
  return q;
}

/** The purchase event log of an app (optionally of one app user, one environment, or the events named), newest first. */
export async function listPurchaseEventLog(
  db: Knex,
  appId: string,
  opts: PurchaseLogFilter & { limit: number },
): Promise<PurchaseEventView[]> {
  const rows: StoredEnvironment<PurchaseEventView>[] = await purchaseEventsQuery(db, appId, opts)
    .orderBy('received_at', 'desc')
    .limit(opts.limit);
  return rows.map(inApiForm);
}

export const PURCHASE_EVENT_TABLE: TableSpec = {
  sortable: [
    'received_at',
    'event_type',
    'app_user_id',
    'product_id',
    'environment',
    'referral_code',
    'processing_status',
    'price_usd_micros',
    'commission_micros',
  ],
  searchable: ['event_id', 'event_type', 'app_user_id', 'product_id', 'referral_code', 'processing_status', 'error'],
  defaultSort: 'received_at',
  defaultDir: 'desc',
  key: 'event_id',
};

/** The dashboard's events table: the purchase event log with amounts, searched, sorted and cut to `window`. */
export async function pagePurchaseEvents(
  db: Knex,
  appId: string,
  opts: { environment?: EnvironmentFilter },
  view: TableView,
  window: TableWindow,
): Promise<TablePage<PurchaseEventView>> {
  const page = await pageOf<StoredEnvironment<PurchaseEventView>>(
    db,
    purchaseEventsQuery(db, appId, { ...opts, amounts: true }),
    PURCHASE_EVENT_TABLE,
    view,
    window,
  );
  return { ...page, rows: page.rows.map(inApiForm) };
}

export interface UserConversionView {
  conversion_id: string;
  kind: string;
  status: string;
  environment: ApiEnvironment;
  product_id: string | null;
  billing_cycles: number;
  attributed: boolean;
  referral_code: string | null;
  attribution_method: string | null;
  created_at: Date;
}

/** One app user's conversions, newest first. */
export async function listUserConversions(db: Knex, appId: string, appUserId: string, limit: number): Promise<UserConversionView[]> {
  const rows = await db('conversions')
    .where({ app_id: appId, app_user_id: appUserId })
    .orderBy('created_at', 'desc')
    .limit(limit)
    .select<(Omit<UserConversionView, 'environment'> & { environment: string })[]>(
      'id as conversion_id',
      'kind',
      'status',
      'environment',
      'product_id',
      'billing_cycles',
      'attributed',
      'referral_code',
      'attribution_method',
      'created_at',
    );
  return rows.map((r) => ({ ...r, environment: apiEnvironment(r.environment) }));
}
