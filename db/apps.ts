// Apps. Credentials are generated here, returned once to the caller, and stored hashed (the SDK key, public by
// contract, is also kept in clear for the setup page); presented tokens are looked up by digest only. Agents see the
// apps of the organizations their credential was granted; they may change descriptive settings (never a credential)
// and rotate the webhook secret.
import type { Knex } from 'knex';

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

export async function isSlugTaken(db: Knex, slug: string): Promise<boolean> {
  return (await db('apps').where('slug', slug).first('id')) !== undefined;
}

export interface SdkInit {
  platform: 'ios' | 'android' | 'web';
  sdkName: string | null;
  sdkVersion: string;
  appVersion: string;
  runtime: string | null;
}

export interface InitAnswer {
  id: string;
  name: string;
  attribution_window_hours: number;
  ios_validation_provider: string | null;
  android_validation_provider: string | null;
  campaigns: { id: string; name: string; description: string | null }[];
}

export interface AppAttributionSettings {
  id: string;
  attribution_window_hours: number;
}

export async function getAttributionSettings(db: Knex, appId: string): Promise<AppAttributionSettings> {
  return db('apps').where('id', appId).first<AppAttributionSettings>('id', 'attribution_window_hours');
}

export interface AppSettingsPatch {
  name?: string;
  description?: string | null;
  tagline?: string | null;
  support_email?: string | null;
  ios_store_url?: string | null;
  android_store_url?: string | null;
  web_url?: string | null;
  attribution_window_hours?: number;
  /** Store fee settings of an estimated proceeds basis (lib/commission-basis.ts). */
  apple_small_business_program?: boolean;
  google_play_fee_tier_enrolled?: boolean;
  /** Merged into the stored settings (keys not given keep their value). */
  creator_code_settings?: { mirror_free_access_to_subprovider?: boolean };
}

export const PATCHABLE: readonly (keyof AppSettingsPatch)[] = [
  'name',
  'description',
  'tagline',
  'support_email',
  'ios_store_url',
  'android_store_url',
  'web_url',
  'attribution_window_hours',
  'apple_small_business_program',
  'google_play_fee_tier_enrolled',
];

/** The app holding a slug, whichever organization it belongs to (slugs are globally unique). */
export async function findAppBySlug(db: Knex, slug: string): Promise<{ id: string; org_id: string; sdk_key: string } | undefined> {
  return db('apps').where('slug', slug).first<{ id: string; org_id: string; sdk_key: string } | undefined>('id', 'org_id', 'sdk_key');
}

export interface AppleMetaPatch {
  issuer_id?: string;
  key_id?: string;
  environment?: string;
  app_apple_id?: string;
  bundle_id?: string;
}

const APP_COLUMNS = [
  'id',
  'org_id',
  'name',
  'slug',
  'description',
  'tagline',
  'support_email',
  'sdk_key',
  'attribution_window_hours',
  'ios_validation_provider',
  'android_validation_provider',
  'ios_store_url',
  'android_store_url',
  'web_url',
  'webhook_connected_at',
  'sdk_initialized_at',
  'created_at',
  'updated_at',
  'name_i18n',
  'description_i18n',
  'tagline_i18n',
  'i18n_meta',
  'creator_code_settings',
  'apple_small_business_program',
  'google_play_fee_tier_enrolled',
] as const;

export type AgentAppRow = Record<(typeof APP_COLUMNS)[number], unknown> & { id: string; org_id: string };

export async function listAppsInOrgs(db: Knex, orgIds: readonly string[]): Promise<AgentAppRow[]> {
  if (orgIds.length === 0) return [];
  return db('apps').whereIn('org_id', orgIds).orderBy('created_at').select<AgentAppRow[]>(APP_COLUMNS);
}

export async function findApp(db: Knex, appId: string): Promise<AgentAppRow | undefined> {
  return db('apps').where('id', appId).first<AgentAppRow | undefined>(APP_COLUMNS);
}

export interface AppInitFreshness {
  app_id: string;
  name: string;
  org_id: string;
  sdk_initialized_at: Date | null;
  sdk_init_meta: Record<string, { sdk_name?: string; sdk_version?: string; app_version?: string; at?: string }>;
}

export async function listAppInitFreshness(db: Knex, orgIds: readonly string[]): Promise<AppInitFreshness[]> {
  if (orgIds.length === 0) return [];
  return db('apps')
    .whereIn('org_id', orgIds)
    .orderBy('created_at')
    .select<AppInitFreshness[]>('id as app_id', 'name', 'org_id', 'sdk_initialized_at', 'sdk_init_meta');
}

export interface AppCredentialMatch {
  appId: string;
  orgId: string;
}

type AppCredentialColumn = 'sdk_key_hash' | 'webhook_secret_hash' | 'purchase_api_key_hash';

export async function findAppByCredentialHash(
  db: Knex,
  column: AppCredentialColumn,
  hash: string,
): Promise<AppCredentialMatch | undefined> {
  const row = await db('apps').where(column, hash).first<{ id: string; org_id: string } | undefined>('id', 'org_id');
  return row ? { appId: row.id, orgId: row.org_id } : undefined;
}

/** The stored webhook secret digest of an app, for the per-app webhook URL (which names the app itself). */
export async function findAppWebhookSecretHash(db: Knex, appId: string): Promise<{ appId: string; hash: string } | undefined> {
  const row = await db('apps')
    .where('id', appId)
    .first<{ id: string; webhook_secret_hash: string } | undefined>('id', 'webhook_secret_hash');
  return row ? { appId: row.id, hash: row.webhook_secret_hash } : undefined;
}

export type AppI18nColumn = 'name_i18n' | 'description_i18n' | 'tagline_i18n' | 'i18n_meta';
export type AppCopy = Record<'name' | 'description' | 'tagline' | AppI18nColumn, unknown>;
export const APP_COPY_COLUMNS = ['name', 'description', 'tagline', 'name_i18n', 'description_i18n', 'tagline_i18n', 'i18n_meta'];

/** Whether the app mirrors free-access grants to the subscription provider (creator_code_settings). */
export async function mirrorsFreeAccessGrants(db: Knex, appId: string): Promise<boolean> {
  const app = await db('apps')
    .where('id', appId)
    .first<{ creator_code_settings: Record<string, unknown> } | undefined>('creator_code_settings');
  return app?.creator_code_settings.mirror_free_access_to_subprovider === true;
}

/** The app's purchase-validation provider per platform (apps.{ios,android}_validation_provider). */
export interface ValidationProviders {
  ios_validation_provider: string | null;
  android_validation_provider: string | null;
}

export async function findValidationProviders(db: Knex, appId: string): Promise<ValidationProviders | undefined> {
  return db('apps').where('id', appId).first('ios_validation_provider', 'android_validation_provider');
}
