// What arrived for an app, newest first (agent API events/recent and verify-user-conversions): custom SDK events and
// the purchase event log with its attribution flags. No amounts.
import type { Knex } from 'knex';
import { SANDBOX_ENVIRONMENTS } from '../schema/types.js';

/** The filter of events/recent: SANDBOX means every sandbox environment (SANDBOX, XCODE, LOCAL_TESTING). */
export type EnvironmentFilter = 'SANDBOX' | 'PRODUCTION';

const environmentsOf = (filter: EnvironmentFilter): readonly string[] => (filter === 'PRODUCTION' ? ['PRODUCTION'] : SANDBOX_ENVIRONMENTS);

export interface SdkEventView { event_id: string; event_type: string; app_user_id: string; referral_code: string | null; platform: string | null; environment: string | null; created_at: Date }

/**
 * Custom SDK events. They are stored once each (the event endpoint drops repeats). Clients send no environment, so
 * the environment filter keeps every event without one and applies only to events that carry one.
 */
export async function listRecentSdkEvents(db: Knex, appId: string, opts: { environment?: EnvironmentFilter; eventIds?: readonly string[]; limit: number }): Promise<SdkEventView[]> {
  const q = db('sdk_events').where('app_id', appId).orderBy('created_at', 'desc').limit(opts.limit);
  if (opts.eventIds) void q.whereIn('event_id', opts.eventIds);
  if (opts.environment) void q.where((w) => void w.whereNull('environment').orWhereIn('environment', environmentsOf(opts.environment!)));
  return q.select<SdkEventView[]>('event_id', 'event_type', 'app_user_id', 'referral_code', 'platform', 'environment', 'created_at');
}

export interface PurchaseEventView {
  event_id: string;
  event_type: string;
  source: string;
  environment: string | null;
  app_user_id: string | null;
  product_id: string | null;
  attributed: boolean;
  organic: boolean;
  referral_code: string | null;
  conversion_id: string | null;
  processing_status: string;
  error: string | null;
  received_at: Date;
}

/** The purchase event log of an app (optionally of one app user, one environment, or the events named), newest first. */
export async function listPurchaseEventLog(db: Knex, appId: string, opts: { environment?: EnvironmentFilter; appUserId?: string; eventIds?: readonly string[]; limit: number }): Promise<PurchaseEventView[]> {
  const q = db('purchase_events').where('app_id', appId).orderBy('received_at', 'desc').limit(opts.limit);
  if (opts.eventIds) void q.whereIn('id', opts.eventIds);
  if (opts.environment) void q.whereIn('environment', environmentsOf(opts.environment));
  if (opts.appUserId) void q.where('app_user_id', opts.appUserId);
  return q.select<PurchaseEventView[]>(
    'id as event_id', 'event_type', 'source', 'environment', 'app_user_id', 'product_id', 'attributed', 'organic', 'referral_code',
    'conversion_id', 'processing_status', 'error', 'received_at');
}

export interface UserConversionView {
  conversion_id: string;
  kind: string;
  status: string;
  environment: string;
  product_id: string | null;
  billing_cycles: number;
  attributed: boolean;
  referral_code: string | null;
  attribution_method: string | null;
  created_at: Date;
}

/** One app user's conversions, newest first. */
export async function listUserConversions(db: Knex, appId: string, appUserId: string, limit: number): Promise<UserConversionView[]> {
  return db('conversions').where({ app_id: appId, app_user_id: appUserId }).orderBy('created_at', 'desc').limit(limit)
    .select<UserConversionView[]>('id as conversion_id', 'kind', 'status', 'environment', 'product_id', 'billing_cycles', 'attributed',
      'referral_code', 'attribution_method', 'created_at');
}
