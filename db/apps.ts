// Apps. Credentials are generated here, returned once to the caller, and stored hashed (the SDK key, public by
// contract, is also kept in clear for the setup page); presented tokens are looked up by digest only. Agents see the
// apps of the organizations their credential was granted; they may change descriptive settings (never a credential)
// and rotate the webhook secret.
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
  const [row] = await db('apps')
    .insert({
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
    })
    .returning<{ id: string; slug: string }[]>(['id', 'slug']);
  return { id: row!.id, slug: row!.slug, sdkKey, webhookSecret, purchaseApiKey };
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

/**
 * The init call in one round trip: records the SDK as initialized for this platform (for the setup checklist and
 * the doctor's freshness; written at most once a minute per platform unless the SDK identity changed, because every
 * app launch calls init) and returns the app with its active campaigns.
 */
export async function recordSdkInit(db: Knex, appId: string, init: SdkInit): Promise<InitAnswer | undefined> {
  const meta = JSON.stringify({
    sdk_name: init.sdkName,
    sdk_version: init.sdkVersion,
    app_version: init.appVersion,
    runtime: init.runtime,
  });
  const result = await db.raw<{ rows: InitAnswer[] }>(
    `
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
    { appId, platform: init.platform, sdkName: init.sdkName, sdkVersion: init.sdkVersion, appVersion: init.appVersion, meta },
  );
  return result.rows[0];
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
  /** Merged into the stored settings (keys not given keep their value). */
  creator_code_settings?: { mirror_free_access_to_subprovider?: boolean };
}

const PATCHABLE: readonly (keyof AppSettingsPatch)[] = [
  'name',
  'description',
  'tagline',
  'support_email',
  'ios_store_url',
  'android_store_url',
  'web_url',
  'attribution_window_hours',
];

/** Applies the listed settings (other keys are ignored); returns whether the app exists. */
async function updateAppSettings(db: Knex, appId: string, patch: AppSettingsPatch): Promise<boolean> {
  const changes: Record<string, unknown> = Object.fromEntries(PATCHABLE.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]));
  if (patch.creator_code_settings)
    changes.creator_code_settings = db.raw('creator_code_settings || ?::jsonb', [JSON.stringify(patch.creator_code_settings)]);
  if (Object.keys(changes).length === 0) return (await db('apps').where('id', appId).first('id')) !== undefined;
  return (await db('apps').where('id', appId).update(changes)) === 1;
}

/**
 * A new webhook secret replaces the old one at once (only its digest is stored, so the old secret stops matching).
 * The webhook counts as not connected again until the provider sends an event with the new secret.
 */
export async function rotateWebhookSecret(db: Knex, appId: string): Promise<string | undefined> {
  const secret = generateToken(WEBHOOK_SECRET_PREFIX);
  const updated = await db('apps')
    .where('id', appId)
    .update({
      webhook_secret_hash: hashToken(secret),
      webhook_secret_hint: secret.slice(-4),
      webhook_secret_rotated_at: db.fn.now(),
      webhook_connected_at: null,
    });
  return updated === 1 ? secret : undefined;
}

/** A new server-side purchase API key (`it_srv_`) replaces the old one at once; returned once, stored as a digest. */
export async function rotatePurchaseApiKey(db: Knex, appId: string): Promise<string | undefined> {
  const key = generateToken(PURCHASE_API_KEY_PREFIX);
  const updated = await db('apps')
    .where('id', appId)
    .update({ purchase_api_key_hash: hashToken(key) });
  return updated === 1 ? key : undefined;
}

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

/** Merges non-secret Apple settings into apps.apple_meta (and the store ids the app keeps in columns). */
export async function mergeAppleMeta(db: Knex, appId: string, patch: AppleMetaPatch): Promise<Record<string, string>> {
  const [row] = await db('apps')
    .where('id', appId)
    .update({
      apple_meta: db.raw('apple_meta || ?::jsonb', [JSON.stringify(patch)]),
      ...(patch.app_apple_id ? { app_store_id: patch.app_apple_id } : {}),
      ...(patch.bundle_id ? { ios_bundle_id: patch.bundle_id } : {}),
    })
    .returning<{ apple_meta: Record<string, string> }[]>(['apple_meta']);
  return row!.apple_meta;
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
const APP_COPY_COLUMNS = ['name', 'description', 'tagline', 'name_i18n', 'description_i18n', 'tagline_i18n', 'i18n_meta'];

/** Under the app's row lock, `nextFor` derives the new localized columns from the current copy (null: no write). */
export async function updateAppI18n(
  db: Knex,
  appId: string,
  nextFor: (current: AppCopy) => Record<AppI18nColumn, object> | null,
): Promise<AppCopy | undefined> {
  return db.transaction(async (trx) => {
    const current = await trx('apps').where('id', appId).forUpdate().first<AppCopy | undefined>(APP_COPY_COLUMNS);
    if (!current) return undefined;
    const next = nextFor(current);
    if (!next) return current;
    const [updated] = await trx('apps')
      .where('id', appId)
      .update(Object.fromEntries(Object.entries(next).map(([k, v]) => [k, JSON.stringify(v)])), APP_COPY_COLUMNS);
    return updated as AppCopy;
  });
}

/**
 * An app PATCH in one transaction: the settings first, then (when given) the localized columns derived under the row
 * lock from the text just written, so translations supplied with a new source text are recorded against it.
 */
export async function patchApp(
  db: Knex,
  appId: string,
  patch: AppSettingsPatch,
  nextI18n?: (current: AppCopy) => Record<AppI18nColumn, object>,
): Promise<void> {
  await db.transaction(async (trx) => {
    await updateAppSettings(trx, appId, patch);
    if (nextI18n) await updateAppI18n(trx, appId, nextI18n);
  });
}

/** The webhook counts as connected once the provider reached it with the current secret (a TEST event or any other). */
export async function markWebhookConnected(db: Knex, appId: string): Promise<void> {
  await db('apps').where('id', appId).update({ webhook_connected_at: db.fn.now() });
}

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
