// What the Android recordings of `npm run replay:record` share: the app switched to store-direct Android as the
// activation leaves it (a service account the Google stub accepts, stored encrypted, checked ok), against a Google
// stub whose URLs the worker's config points at.
import type { Knex } from 'knex';
import { generateKeyPairSync } from 'node:crypto';
import { saveCredential } from '../../db/store-credentials-writes.js';
import type { Config } from '../../runtime/config.js';
import { SecretBox } from '../../lib/secret-box.js';
import { STORE_VERIFIER } from '../../lib/validation-providers.js';
import { startGoogleStub, type GoogleStub } from '../stubs/google-api.js';

export const REPLAY_PACKAGE = 'com.example.replay';

/** The Google stub, started; the caller closes it. */
export async function androidStoreDirect(r: { db: Knex; config: Config; appId: string }): Promise<GoogleStub> {
  const google = await startGoogleStub();
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account = {
    type: 'service_account',
    client_email: 'replay@proj.iam.gserviceaccount.com',
    private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  google.expect = { publicKey: pair.publicKey, clientEmail: account.client_email, packageName: REPLAY_PACKAGE };
  Object.assign(r.config, { GOOGLE_PLAY_API_ROOT: google.url, GOOGLE_TOKEN_URL: google.tokenUrl });
  await saveCredential(r.db, new SecretBox(r.config.SVC_MASTER_KEY!), r.appId, 'android', JSON.stringify(account), {
    package_name: REPLAY_PACKAGE,
  });
  await r.db('store_credentials').where({ app_id: r.appId, platform: 'android' }).update({ check_status: 'ok' });
  await r.db('apps').where('id', r.appId).update({ android_validation_provider: STORE_VERIFIER.android });
  return google;
}
