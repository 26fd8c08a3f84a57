// Agent writes to an app: its descriptive settings (never a credential) and the webhook-secret rotation.
import type { Knex } from 'knex';
import { generateToken, hashToken, WEBHOOK_SECRET_PREFIX } from '../lib/credentials.js';

export interface AppSettingsPatch {
  name?: string;
  description?: string | null;
  tagline?: string | null;
  support_email?: string | null;
  ios_store_url?: string | null;
  android_store_url?: string | null;
  web_url?: string | null;
  attribution_window_hours?: number;
}

const PATCHABLE: readonly (keyof AppSettingsPatch)[] = [
  'name', 'description', 'tagline', 'support_email', 'ios_store_url', 'android_store_url', 'web_url', 'attribution_window_hours',
];

/** Applies the listed settings (other keys are ignored); returns whether the app exists. */
export async function updateAppSettings(db: Knex, appId: string, patch: AppSettingsPatch): Promise<boolean> {
  const changes = Object.fromEntries(PATCHABLE.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]));
  if (Object.keys(changes).length === 0) return (await db('apps').where('id', appId).first('id')) !== undefined;
  return (await db('apps').where('id', appId).update(changes)) === 1;
}

/**
 * A new webhook secret replaces the old one at once (only its digest is stored, so the old secret stops matching).
 * The webhook counts as not connected again until the provider sends an event with the new secret.
 */
export async function rotateWebhookSecret(db: Knex, appId: string): Promise<string | undefined> {
  const secret = generateToken(WEBHOOK_SECRET_PREFIX);
  const updated = await db('apps').where('id', appId).update({
    webhook_secret_hash: hashToken(secret), webhook_secret_hint: secret.slice(-4), webhook_secret_rotated_at: db.fn.now(),
    webhook_connected_at: null,
  });
  return updated === 1 ? secret : undefined;
}

/** The app holding a slug, whichever organization it belongs to (slugs are globally unique). */
export async function findAppBySlug(db: Knex, slug: string): Promise<{ id: string; org_id: string; sdk_key: string } | undefined> {
  return db('apps').where('slug', slug).first<{ id: string; org_id: string; sdk_key: string } | undefined>('id', 'org_id', 'sdk_key');
}

export interface AppleMetaPatch { issuer_id?: string; key_id?: string; environment?: string; app_apple_id?: string; bundle_id?: string }

/** Merges non-secret Apple settings into apps.apple_meta (and the store ids the app keeps in columns). */
export async function mergeAppleMeta(db: Knex, appId: string, patch: AppleMetaPatch): Promise<Record<string, string>> {
  const [row] = await db('apps').where('id', appId).update({
    apple_meta: db.raw('apple_meta || ?::jsonb', [JSON.stringify(patch)]),
    ...(patch.app_apple_id ? { app_store_id: patch.app_apple_id } : {}),
    ...(patch.bundle_id ? { ios_bundle_id: patch.bundle_id } : {}),
  }).returning<{ apple_meta: Record<string, string> }[]>(['apple_meta']);
  return row!.apple_meta;
}
