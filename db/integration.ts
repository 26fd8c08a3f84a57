// Reads behind the integration checks of one app (agent API integration-status and test-integration): the facts
// the checklist is decided from, per-campaign health, and the creator code a test purchase is made with.
import type { Knex } from 'knex';
import { notificationWiring } from './store-notifications.js';
import { activeOfferCodePlatforms } from './offer-codes.js';
import { PURCHASE_EVENT_TYPES, type IntegrationFacts } from '../lib/integration-checklist.js';

interface AppEvidenceRow {
  id: string;
  created_at: Date;
  sdk_initialized_at: Date | null;
  sdk_init_meta: IntegrationFacts['sdkInitMeta'];
  ios_validation_provider: string | null;
  android_validation_provider: string | null;
  webhook_connected_at: Date | null;
}

type Latest = { at: Date; type: string; environment: string | null } | null;

const latestPurchaseEvent = (db: Knex, appId: string, where: (q: Knex.QueryBuilder) => void): Promise<Latest> =>
  db('purchase_events')
    .where('app_id', appId)
    .where(where)
    .orderBy('received_at', 'desc')
    .first<Latest | undefined>('received_at as at', 'event_type as type', 'environment')
    .then((r) => r ?? null);

/** Everything the checklist needs about the app, or undefined when it does not exist. */
export async function readIntegrationFacts(db: Knex, appId: string): Promise<IntegrationFacts | undefined> {
  const app = await db('apps')
    .where('id', appId)
    .first<AppEvidenceRow | undefined>(
      'id',
      'created_at',
      'sdk_initialized_at',
      'sdk_init_meta',
      'ios_validation_provider',
      'android_validation_provider',
      'webhook_connected_at',
    );
  if (!app) return undefined;
  const [
    campaigns,
    credentials,
    lastSdkEvent,
    lastProviderWebhook,
    lastDirectPurchase,
    lastPurchaseEvent,
    lastTest,
    conversions,
    notifications,
  ] = await Promise.all([
    db('campaigns')
      .where('app_id', appId)
      .whereNot('status', 'archived')
      .orderBy('created_at')
      .select<{ id: string; name: string; status: string }[]>('id', 'name', 'status'),
    db('store_credentials')
      .where('app_id', appId)
      .whereIn('platform', ['ios', 'android'])
      .select<{ platform: 'ios' | 'android'; check_status: string }[]>('platform', 'check_status'),
    db('sdk_events')
      .where('app_id', appId)
      .orderBy('created_at', 'desc')
      .first<{ at: Date; type: string } | undefined>('created_at as at', 'event_type as type'),
    latestPurchaseEvent(db, appId, (q) => void q.where('source', 'subprovider')),
    latestPurchaseEvent(db, appId, (q) => void q.where('source', 'direct')),
    latestPurchaseEvent(db, appId, (q) => void q.whereNot('source', 'test_integration').whereIn('event_type', PURCHASE_EVENT_TYPES)),
    db('purchase_events')
      .where({ app_id: appId, source: 'test_integration' })
      .orderBy('received_at', 'desc')
      .first<{ at: Date; attributed: boolean } | undefined>('received_at as at', 'attributed'),
    // A conversion counts when a purchase through the app's real path reached it: told apart by the event's source.
    db('conversions as c')
      .where({ 'c.app_id': appId, 'c.attributed': true })
      .whereExists(
        (q) =>
          void q
            .select(db.raw('1'))
            .from('purchase_events as e')
            .whereRaw('e.conversion_id = c.id')
            .whereNot('e.source', 'test_integration'),
      )
      .first<{ real_path: string; production: string }>(
        db.raw('count(*) as real_path'),
        db.raw("count(*) filter (where c.environment = 'PRODUCTION') as production"),
      ),
    notificationWiring(db, appId),
  ]);
  const offerPlatforms = await activeOfferCodePlatforms(db, appId);
  return {
    appId: app.id,
    appCreatedAt: app.created_at,
    campaigns,
    sdkInitializedAt: app.sdk_initialized_at,
    sdkInitMeta: app.sdk_init_meta ?? {},
    providers: { ios_validation_provider: app.ios_validation_provider, android_validation_provider: app.android_validation_provider },
    storeCredentials: Object.fromEntries(credentials.map((c) => [c.platform, c.check_status])),
    webhookConnectedAt: app.webhook_connected_at,
    lastSdkEvent: lastSdkEvent ?? null,
    lastProviderWebhook,
    lastDirectPurchase,
    lastPurchaseEvent,
    attributedConversions: { realPath: Number(conversions.real_path), production: Number(conversions.production) },
    lastTestIntegration: lastTest ?? null,
    notifications: { ios: notifications.ios.last_received_at, android: notifications.android.last_received_at },
    notificationsWired: { ios: notifications.ios.wired, android: notifications.android.wired },
    activeOfferCodePlatforms: offerPlatforms,
  };
}

export interface CampaignHealthRow {
  campaign_id: string;
  name: string;
  campaign_type: string;
  commission_percentage: number;
  creators: number;
  clicks: number;
  installs: number;
  /** Production attributed conversions (sandbox never counts in stats). */
  conversions: number;
}

/** Counts per active campaign of the app: active creator codes, link clicks, attributed installs, conversions. */
export async function listCampaignHealth(db: Knex, appId: string): Promise<CampaignHealthRow[]> {
  const rows = await db('campaigns as c')
    .where({ 'c.app_id': appId, 'c.status': 'active' })
    .orderBy('c.created_at')
    .select<Record<string, string>[]>(
      'c.id as campaign_id',
      'c.name',
      'c.campaign_type',
      'c.commission_percentage',
      db.raw("(select count(*) from creator_codes cc where cc.campaign_id = c.id and cc.status = 'active') as creators"),
      db.raw('(select count(*) from clicks k where k.campaign_id = c.id) as clicks'),
      db.raw('(select count(*) from installs i where i.campaign_id = c.id) as installs'),
      db.raw(
        "(select count(*) from conversions v where v.campaign_id = c.id and v.attributed and v.environment = 'PRODUCTION') as conversions",
      ),
    );
  return rows.map((r) => ({
    campaign_id: r.campaign_id!,
    name: r.name!,
    campaign_type: r.campaign_type!,
    commission_percentage: Number(r.commission_percentage),
    creators: Number(r.creators),
    clicks: Number(r.clicks),
    installs: Number(r.installs),
    conversions: Number(r.conversions),
  }));
}

export interface TestReferralCode {
  campaignId: string;
  code: string;
}

/** A creator code a test purchase can be attributed to: an active code of an active campaign (oldest first). */
export async function findTestReferralCode(db: Knex, appId: string): Promise<TestReferralCode | undefined> {
  return db('creator_codes as cc')
    .join('campaigns as c', 'c.id', 'cc.campaign_id')
    .where({ 'cc.app_id': appId, 'cc.status': 'active', 'c.status': 'active' })
    .orderBy([{ column: 'c.created_at' }, { column: 'cc.created_at' }])
    .first<TestReferralCode | undefined>('c.id as campaignId', 'cc.code');
}
