// Apps and their credentials. Credentials are generated here, returned once to the caller, and stored hashed
// (the SDK key, public by contract, is also kept in clear for the setup page).
import type { Knex } from 'knex';
import { generateToken, hashToken, PURCHASE_API_KEY_PREFIX, SDK_KEY_PREFIX, WEBHOOK_SECRET_PREFIX } from '../../lib/credentials.js';

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
