// What a client may read about one of its users' purchases (GET /sdk/attribution, /sdk/recent-conversions):
// attribution facts and event outcomes, never amounts or creator names.
import type { Knex } from 'knex';
import { apiEnvironment, type ApiEnvironment } from '../lib/api-environment.js';

export interface UserAttributionView {
  referral_code: string;
  campaign_id: string;
  campaign_name: string;
  attributed_at: Date;
  attribution_method: string | null;
}

/** The user's attribution, only once an attributed purchase (conversion) exists. */
export async function findAttributedConversion(db: Knex, appId: string, appUserId: string): Promise<UserAttributionView | undefined> {
  return db('conversions as c')
    .join('campaigns as k', 'k.id', 'c.campaign_id')
    .where({ 'c.app_id': appId, 'c.app_user_id': appUserId, 'c.attributed': true })
    .orderBy('c.attributed_at', 'asc')
    .first<UserAttributionView | undefined>(
      'c.referral_code',
      'c.campaign_id',
      'k.name as campaign_name',
      'c.attributed_at',
      'c.attribution_method',
    );
}

export interface RecentPurchaseEvent {
  event_type: string;
  product_id: string | null;
  store: string | null;
  /** Spec: SANDBOX or PRODUCTION only (XCODE and LOCAL_TESTING are sandboxes; an event without one never counted). */
  environment: ApiEnvironment;
  is_test: boolean;
  attributed: boolean;
  referral_code: string | null;
  /** How the conversion was attributed when the event is (`offer_code`: a creator's store offer code), else null. */
  attribution_method: string | null;
  status: string;
  event_timestamp: string;
}

/** The user's recent purchase events, newest first (ignored events such as promotional grants are left out). */
export async function listRecentPurchaseEvents(db: Knex, appId: string, appUserId: string, limit: number): Promise<RecentPurchaseEvent[]> {
  const rows = await db('purchase_events as p')
    .leftJoin('conversions as c', 'c.id', 'p.conversion_id')
    .where({ 'p.app_id': appId, 'p.app_user_id': appUserId })
    .whereNot('p.processing_status', 'ignored')
    .orderBy([
      { column: 'p.event_timestamp_ms', order: 'desc' },
      { column: 'p.received_at', order: 'desc' },
    ])
    .limit(limit)
    .select<
      (Omit<RecentPurchaseEvent, 'status' | 'event_timestamp' | 'environment' | 'attribution_method'> & {
        conversion_method: string | null;
        environment: string | null;
        conversion_status: string | null;
        processing_status: string;
        event_timestamp_ms: number;
      })[]
    >(
      'p.event_type',
      'p.product_id',
      'p.store',
      'p.environment',
      'p.is_test',
      'p.attributed',
      'p.referral_code',
      'c.status as conversion_status',
      'c.attribution_method as conversion_method',
      'p.processing_status',
      'p.event_timestamp_ms',
    );
  return rows.map(({ conversion_status, conversion_method, processing_status, event_timestamp_ms, ...r }) => ({
    ...r,
    attribution_method: r.attributed ? conversion_method : null,
    environment: apiEnvironment(r.environment ?? 'SANDBOX'),
    is_test: r.is_test || r.environment !== 'PRODUCTION',
    status: conversion_status ?? processing_status,
    event_timestamp: new Date(event_timestamp_ms).toISOString(),
  }));
}
