// Encrypted per-app credentials (store_credentials): the store keys of store-direct validation and the
// subscription provider's secret API key. Values are sealed with the app and platform as associated data, so a
// row copied to another app cannot be opened there.
import type { Knex } from 'knex';
import type { SecretBox } from '../lib/secret-box.js';

export type CredentialPlatform = 'ios' | 'android' | 'subprovider';

const aad = (appId: string, platform: CredentialPlatform) => `${appId}:${platform}`;

export async function saveCredential(db: Knex, box: SecretBox, appId: string, platform: CredentialPlatform, secret: string, meta: Record<string, string | null> = {}): Promise<void> {
  const sealed = box.seal(secret, aad(appId, platform));
  const row = {
    app_id: appId, platform, ciphertext: sealed.ciphertext, iv: sealed.iv, auth_tag: sealed.authTag, enc_key_version: sealed.keyVersion,
    check_status: 'unchecked', checked_at: null, last_error: null, ...meta,
  };
  await db('store_credentials').insert(row).onConflict(['app_id', 'platform']).merge();
}

export async function loadCredential(db: Knex, box: SecretBox, appId: string, platform: CredentialPlatform): Promise<string | undefined> {
  const row = await db('store_credentials').where({ app_id: appId, platform })
    .first<{ ciphertext: Buffer; iv: Buffer; auth_tag: Buffer } | undefined>('ciphertext', 'iv', 'auth_tag');
  return row ? box.open({ ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag }, aad(appId, platform)) : undefined;
}
