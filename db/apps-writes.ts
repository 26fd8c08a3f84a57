// Writes of apps (reads stay in db/apps.ts): creating one with its keys, rotating its secrets, the SDK's first
// init, the webhook's first delivery, Apple metadata and localized copy.
import type { Knex } from 'knex';
import { generateToken, hashToken, PURCHASE_API_KEY_PREFIX, SDK_KEY_PREFIX, WEBHOOK_SECRET_PREFIX } from '../lib/credentials.js';
import {
  APP_COPY_COLUMNS,
  PATCHABLE,
  type AppCopy,
  type AppI18nColumn,
  type AppleMetaPatch,
  type AppSettingsPatch,
  type CreatedApp,
  type InitAnswer,
  type NewApp,
  type SdkInit,
} from './apps.js';

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

/** The webhook counts as connected once the provider reached it with the current secret (a TEST event or any other). */
export async function markWebhookConnected(db: Knex, appId: string): Promise<void> {
  await db('apps').where('id', appId).update({ webhook_connected_at: db.fn.now() });
}

/** Applies the listed settings (other keys are ignored); returns whether the app exists. */
export async function updateAppSettings(db: Knex, appId: string, patch: AppSettingsPatch): Promise<boolean> {
  const changes: Record<string, unknown> = Object.fromEntries(PATCHABLE.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]));
  if (patch.creator_code_settings)
    changes.creator_code_settings = db.raw('creator_code_settings || ?::jsonb', [JSON.stringify(patch.creator_code_settings)]);
  if (Object.keys(changes).length === 0) return (await db('apps').where('id', appId).first('id')) !== undefined;
  return (await db('apps').where('id', appId).update(changes)) === 1;
}
