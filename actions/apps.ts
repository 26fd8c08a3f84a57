// An app's writes as business actions (db/apps-writes.ts does the SQL): registering one with its keys, its settings
// and localized copy, rotating its secrets, Apple metadata, and the SDK's init. The dashboard's REST handlers
// (api/dashboard/apps/app-handlers.ts), the agent API (api/agent/app-writes.ts, apple-meta.ts, localize.ts) and the SDK
// (api/sdk/app-snapshot-cache.ts) call them and then forget their caches.
import type { Knex } from 'knex';
import type { AppCopy, AppI18nColumn, AppleMetaPatch, AppSettingsPatch, CreatedApp, InitAnswer, NewApp, SdkInit } from '../db/apps.js';
import {
  createApp,
  mergeAppleMeta,
  recordSdkInit,
  rotatePurchaseApiKey,
  rotateWebhookSecret,
  updateAppI18n,
  updateAppSettings,
} from '../db/apps-writes.js';

type Deps = { db: Knex };

/** A new app with its SDK key, webhook secret and purchase API key (the plain secrets are in the answer only). */
export async function registerApp(deps: Deps, input: NewApp): Promise<CreatedApp> {
  return createApp(deps.db, input);
}

/**
 * An app PATCH in one transaction: the settings first, then (when given) the localized columns derived under the row
 * lock from the text just written, so translations supplied with a new source text are recorded against it.
 */
export async function updateApp(
  deps: Deps,
  input: { appId: string; settings: AppSettingsPatch; nextI18n?: (current: AppCopy) => Record<AppI18nColumn, object> },
): Promise<void> {
  const { appId, nextI18n } = input;
  await deps.db.transaction(async (trx) => {
    await updateAppSettings(trx, appId, input.settings);
    if (nextI18n) await updateAppI18n(trx, appId, nextI18n);
  });
}

/** Under the app's row lock, `nextFor` derives the new localized columns from the current copy (null: no write). */
export async function localizeApp(
  deps: Deps,
  input: { appId: string; nextFor: (current: AppCopy) => Record<AppI18nColumn, object> | null },
): Promise<AppCopy | undefined> {
  return updateAppI18n(deps.db, input.appId, input.nextFor);
}

/** A new webhook secret (the old one dies at once); undefined when there is no such app. */
export async function regenerateWebhookSecret(deps: Deps, input: { appId: string }): Promise<string | undefined> {
  return rotateWebhookSecret(deps.db, input.appId);
}

/** A new purchase API key (the old one dies at once); undefined when there is no such app. */
export async function regeneratePurchaseApiKey(deps: Deps, input: { appId: string }): Promise<string | undefined> {
  return rotatePurchaseApiKey(deps.db, input.appId);
}

/** Merges the Apple identifiers into the app's apple_meta; the merged map. */
export async function setAppleMeta(deps: Deps, input: { appId: string; patch: AppleMetaPatch }): Promise<Record<string, string>> {
  return mergeAppleMeta(deps.db, input.appId, input.patch);
}

/** Records an SDK init of the app and answers its init snapshot; undefined when there is no such app. */
export async function recordAppInit(deps: Deps, input: { appId: string; init: SdkInit }): Promise<InitAnswer | undefined> {
  return recordSdkInit(deps.db, input.appId, input.init);
}
