// The writes of store_credentials (reads in db/store-credentials.ts): a credential sealed and stored, one check's
// outcome, the switch of a platform to store-direct validation once its check passed.
import type { Knex } from 'knex';
import type { SecretBox } from '../lib/secret-box.js';
import { STORE_VERIFIER } from '../lib/validation-providers.js';
import type { StorePlatform, CredentialPlatform } from '../schema/types.js';
import { credentialAad, type StoreCheckStatus } from './store-credentials.js';

export async function saveCredential(
  db: Knex,
  box: SecretBox,
  appId: string,
  platform: CredentialPlatform,
  secret: string,
  meta: Record<string, string | null> = {},
): Promise<void> {
  const sealed = box.seal(secret, credentialAad(appId, platform));
  const row = {
    app_id: appId,
    platform,
    ciphertext: sealed.ciphertext,
    iv: sealed.iv,
    auth_tag: sealed.authTag,
    enc_key_version: sealed.keyVersion,
    check_status: 'unchecked',
    checked_at: null,
    last_error: null,
    ...meta,
  };
  await db('store_credentials').insert(row).onConflict(['app_id', 'platform']).merge();
}

/** Records one check's outcome; answers its time. */
export async function recordCredentialCheck(
  db: Knex,
  appId: string,
  platform: StorePlatform,
  status: StoreCheckStatus,
  error: string | null,
): Promise<Date> {
  const [row] = await db('store_credentials')
    .where({ app_id: appId, platform })
    .update({ check_status: status, checked_at: db.fn.now(), check_attempts: db.raw('check_attempts + 1'), last_error: error })
    .returning<{ checked_at: Date }[]>('checked_at');
  return row?.checked_at ?? new Date();
}

/** Switches the platform to store-direct validation, only while its credential's check is 'ok'; false otherwise. */
export async function activateStoreDirect(db: Knex, appId: string, platform: StorePlatform): Promise<boolean> {
  const column = platform === 'ios' ? 'ios_validation_provider' : 'android_validation_provider';
  const updated = await db('apps')
    .where('id', appId)
    .whereExists(db('store_credentials').where({ app_id: appId, platform, check_status: 'ok' }).select(db.raw('1')))
    .update({ [column]: STORE_VERIFIER[platform], updated_at: db.fn.now() });
  return updated > 0;
}
