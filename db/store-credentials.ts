// Encrypted per-app credentials (store_credentials): the store keys of store-direct validation and the
// subscription provider's secret API key. Values are sealed with the app and platform as associated data, so a
// row copied to another app cannot be opened there. Also their green-check state (check_*) and the switch of a
// platform to store-direct validation (apps.{ios,android}_validation_provider). Read here; written in
// db/store-credentials-writes.ts (through actions/store-credentials.ts and the credential-check activity).
import type { Knex } from 'knex';
import type { SecretBox } from '../lib/secret-box.js';
import type { StorePlatform, CredentialPlatform } from '../schema/types.js';

/** The associated data a credential is sealed with (db/store-credentials-writes.ts) and opened with. */
export const credentialAad = (appId: string, platform: CredentialPlatform) => `${appId}:${platform}`;

/**
 * A stored credential that cannot be decrypted (sealed under another master key, or altered): only a new upload
 * fixes it. Told apart from a database fault, which is an outage and is retried.
 */
export class UnreadableCredentialError extends Error {
  constructor(readonly platform: CredentialPlatform) {
    super(`the stored ${platform} credential cannot be decrypted`);
    this.name = 'UnreadableCredentialError';
  }
}

/** The decrypted credential, undefined when none was uploaded; UnreadableCredentialError when it cannot be opened. */
export async function loadCredential(db: Knex, box: SecretBox, appId: string, platform: CredentialPlatform): Promise<string | undefined> {
  const row = await db('store_credentials')
    .where({ app_id: appId, platform })
    .first<{ ciphertext: Buffer; iv: Buffer; auth_tag: Buffer } | undefined>('ciphertext', 'iv', 'auth_tag');
  if (!row) return undefined;
  try {
    return box.open({ ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag }, credentialAad(appId, platform));
  } catch {
    throw new UnreadableCredentialError(platform);
  }
}

/** Whether a credential of this kind was uploaded for the app (never opens it). */
export async function hasCredential(db: Knex, appId: string, platform: CredentialPlatform): Promise<boolean> {
  return (await db('store_credentials').where({ app_id: appId, platform }).first('app_id')) !== undefined;
}

export type StoreCheckStatus = 'ok' | 'failed' | 'retryable';

interface MetaRow {
  key_id: string | null;
  issuer_id: string | null;
  bundle_id: string | null;
  package_name: string | null;
  environment: string | null;
}

/** The secret (null when it cannot be decrypted) and its non-secret fields; undefined when none was uploaded. */
export async function loadCredentialForCheck(
  db: Knex,
  box: SecretBox,
  appId: string,
  platform: StorePlatform,
): Promise<{ secret: string | null; meta: Record<string, string | null> } | undefined> {
  const row = await db('store_credentials')
    .where({ app_id: appId, platform })
    .first<MetaRow | undefined>('key_id', 'issuer_id', 'bundle_id', 'package_name', 'environment');
  if (!row) return undefined;
  let secret: string | null;
  try {
    secret = (await loadCredential(db, box, appId, platform)) ?? null;
  } catch (err) {
    if (!(err instanceof UnreadableCredentialError)) throw err;
    secret = null;
  }
  return { secret, meta: { ...row } };
}

/** The platform's check status, undefined when no credential was uploaded. */
export async function credentialCheckStatus(db: Knex, appId: string, platform: StorePlatform): Promise<string | undefined> {
  const row = await db('store_credentials').where({ app_id: appId, platform }).first<{ check_status: string } | undefined>('check_status');
  return row?.check_status;
}

export interface CredentialCheckRow {
  platform: string;
  check_status: string;
  check_attempts: number;
  checked_at: Date | null;
  last_error: string | null;
  environment: string | null;
  updated_at: Date;
}

/** Every stored credential of an app with its check state: never the secret or its ciphertext. */
export async function listCredentialChecks(db: Knex, appId: string): Promise<CredentialCheckRow[]> {
  return db('store_credentials')
    .where('app_id', appId)
    .select<CredentialCheckRow[]>('platform', 'check_status', 'check_attempts', 'checked_at', 'last_error', 'environment', 'updated_at');
}

export interface StoreDirectSetup {
  /** The platform's validation provider (the store verifier's name once store-direct). */
  provider: string | null;
  credentialPresent: boolean;
  /** iOS: the bundle id of the uploaded key (else the app's); Android: the uploaded package name. */
  bundleId: string | null;
  packageName: string | null;
  /** The app's numeric Apple id, when known (apple-meta). */
  appAppleId: string | null;
}

/** What store-direct verification of a platform needs to know about the app; undefined when there is no app. */
export async function findStoreDirectSetup(db: Knex, appId: string, platform: StorePlatform): Promise<StoreDirectSetup | undefined> {
  const row = await db('apps as a')
    .leftJoin('store_credentials as c', (j) => {
      j.on('c.app_id', 'a.id').andOnVal('c.platform', platform);
    })
    .where('a.id', appId)
    .first<
      | { provider: string | null; present: boolean; bundle_id: string | null; package_name: string | null; app_apple_id: string | null }
      | undefined
    >(
      db.raw('?? as provider', [platform === 'ios' ? 'a.ios_validation_provider' : 'a.android_validation_provider']),
      db.raw('c.app_id is not null as present'),
      db.raw('coalesce(c.bundle_id, a.ios_bundle_id) as bundle_id'),
      'c.package_name',
      db.raw("coalesce(a.apple_meta->>'app_apple_id', a.app_store_id) as app_apple_id"),
    );
  if (!row) return undefined;
  return {
    provider: row.provider,
    credentialPresent: row.present,
    bundleId: row.bundle_id,
    packageName: row.package_name,
    appAppleId: row.app_apple_id,
  };
}

/** What the Google Play push endpoint checks of the app: its package and the push's service account (null when unset). */
export interface PlayPushSetup {
  packageName: string | null;
  pushAccount: string | null;
}

/** The app's Play push setup; undefined when there is no app. */
export async function findPlayPushSetup(db: Knex, appId: string): Promise<PlayPushSetup | undefined> {
  const row = await db('apps as a')
    .leftJoin('store_credentials as c', (j) => {
      j.on('c.app_id', 'a.id').andOnVal('c.platform', 'android');
    })
    .where('a.id', appId)
    .first<{ package_name: string | null; pubsub_service_account: string | null } | undefined>(
      'c.package_name',
      'c.pubsub_service_account',
    );
  return row && { packageName: row.package_name, pushAccount: row.pubsub_service_account };
}
