// Apps and their credentials. Credentials are generated here, returned once to the caller, and stored hashed
// (the SDK key, public by contract, is also kept in clear for the setup page).
import type { Knex } from 'knex';
import { generateToken, hashToken, PURCHASE_API_KEY_PREFIX, SDK_KEY_PREFIX, WEBHOOK_SECRET_PREFIX } from '../lib/credentials.js';

export interface NewApp {
  orgId: string;
  name: string;
  slug: string;
  description?: string | null;
  supportEmail?: string | null;
  iosStoreUrl?: string | null;
  androidStoreUrl?: string | null;
  webUrl?: string | null;
}

export interface CreatedApp {
  id: string;
  slug: string;
  sdkKey: string;
  webhookSecret: string;
  purchaseApiKey: string;
}

export async function createApp(db: Knex, app: NewApp): Promise<CreatedApp> {
  const sdkKey = generateToken(SDK_KEY_PREFIX, 24);
  const webhookSecret = generateToken(WEBHOOK_SECRET_PREFIX);
  const purchaseApiKey = generateToken(PURCHASE_API_KEY_PREFIX);
  const [row] = await db('apps').insert({
    org_id: app.orgId,
    name: app.name,
    slug: app.slug,
    description: app.description ?? null,
    support_email: app.supportEmail ?? null,
    ios_store_url: app.iosStoreUrl ?? null,
    android_store_url: app.androidStoreUrl ?? null,
    web_url: app.webUrl ?? null,
    sdk_key: sdkKey,
    sdk_key_hash: hashToken(sdkKey),
    webhook_secret_hash: hashToken(webhookSecret),
    webhook_secret_hint: webhookSecret.slice(-4),
    purchase_api_key_hash: hashToken(purchaseApiKey),
  }).returning<{ id: string; slug: string }[]>(['id', 'slug']);
  return { id: row!.id, slug: row!.slug, sdkKey, webhookSecret, purchaseApiKey };
}

export async function isSlugTaken(db: Knex, slug: string): Promise<boolean> {
  return (await db('apps').where('slug', slug).first('id')) !== undefined;
}

export interface SdkInit { platform: 'ios' | 'android' | 'web'; sdkName: string | null; sdkVersion: string; appVersion: string; runtime: string | null }

export interface InitAnswer {
  id: string;
  name: string;
  attribution_window_hours: number;
  ios_validation_provider: string | null;
  android_validation_provider: string | null;
  campaigns: { id: string; name: string; description: string | null }[];
}

/**
 * The init call in one round trip: records the SDK as initialized for this platform (for the setup checklist and
 * the doctor's freshness; written at most once a minute per platform unless the SDK identity changed, because every
 * app launch calls init) and returns the app with its active campaigns.
 */
export async function recordSdkInit(db: Knex, appId: string, init: SdkInit): Promise<InitAnswer | undefined> {
  const meta = JSON.stringify({ sdk_name: init.sdkName, sdk_version: init.sdkVersion, app_version: init.appVersion, runtime: init.runtime });
  const result = await db.raw<{ rows: InitAnswer[] }>(`
    with touched as (
      update apps set
        sdk_initialized_at = now(), sdk_name = :sdkName, sdk_version = :sdkVersion, sdk_platform = :platform,
        sdk_init_meta = sdk_init_meta || jsonb_build_object(:platform::text, (:meta)::jsonb || jsonb_build_object('at', now()))
      where id = :appId and (
        sdk_init_meta -> :platform::text is null
        or (sdk_init_meta -> :platform::text ->> 'at')::timestamptz < now() - interval '60 seconds'
        or sdk_init_meta -> :platform::text ->> 'sdk_version' is distinct from :sdkVersion
        or sdk_init_meta -> :platform::text ->> 'app_version' is distinct from :appVersion
        or sdk_init_meta -> :platform::text ->> 'sdk_name' is distinct from :sdkName)
      returning id)
    select a.id, a.name, a.attribution_window_hours, a.ios_validation_provider, a.android_validation_provider,
      coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name, 'description', c.description) order by c.created_at)
                from campaigns c where c.app_id = a.id and c.status = 'active'), '[]'::json) as campaigns
    from apps a where a.id = :appId`,
  { appId, platform: init.platform, sdkName: init.sdkName, sdkVersion: init.sdkVersion, appVersion: init.appVersion, meta });
  return result.rows[0];
}

export interface AppAttributionSettings { id: string; attribution_window_hours: number }

export async function getAttributionSettings(db: Knex, appId: string): Promise<AppAttributionSettings> {
  return db('apps').where('id', appId).first<AppAttributionSettings>('id', 'attribution_window_hours');
}
