// The optional mirror of free-access grants to the subscription provider (`rc_grant`): off by default; when the
// app turns it on and stored the provider's key, the grant is sent to the provider's REST API (a local stub).
import test from 'ava';
import { saveCredential } from '../../db/store-credentials-writes.js';
import { SecretBox } from '../../lib/secret-box.js';
import { useHarness } from '../helpers/harness.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedAccount } from '../helpers/seed.js';
import { startSubproviderStub, type SubproviderStub } from '../stubs/subprovider.js';

const PROVIDER_KEY = 'sk_test_provider_secret';
let stub: SubproviderStub;
const ready = startSubproviderStub(PROVIDER_KEY).then((s) => {
  stub = s;
  return s;
});
const h = useHarness(test, { worker: false, env: { SUBPROVIDER_API_ROOT: 'http://127.0.0.1:9/' } });
let seed: Awaited<ReturnType<typeof seedAccount>>;

test.before(async () => {
  await h.ready();
  await ready;
  h().config.SUBPROVIDER_API_ROOT = stub.url;
  seed = await seedAccount(h().db);
  await h()
    .db('free_access_codes')
    .insert([
      { app_id: seed.app_id, code: 'MIRROR1', entitlement: 'pro', access_duration_days: 30 },
      { app_id: seed.app_id, code: 'MIRROR2', entitlement: 'pro' },
    ]);
});
test.after.always(async () => {
  await stub?.close();
});

const redeem = (code: string, user: string) => sdkClient(h().baseUrl, seed.sdk_key).post('/set-referral-code', { code, app_user_id: user });

test.serial('off by default: rc_grant not attempted and nothing sent', async (t) => {
  const res = await redeem('MIRROR1', 'user-a');
  t.deepEqual(res.body.rc_grant, { attempted: false, ok: false, error: null });
  t.is(stub.calls.length, 0);
});

test.serial('enabled with a stored key: the grant reaches the provider as a promotional entitlement', async (t) => {
  const box = new SecretBox(h().config.SVC_MASTER_KEY!);
  await saveCredential(h().db, box, seed.app_id, 'subprovider', PROVIDER_KEY);
  const stored = await h().db('store_credentials').where({ app_id: seed.app_id, platform: 'subprovider' }).first();
  t.false(stored.ciphertext.toString('utf8').includes(PROVIDER_KEY));
  await h()
    .db('apps')
    .where('id', seed.app_id)
    .update({ creator_code_settings: { mirror_free_access_to_subprovider: true } });

  const res = await redeem('MIRROR1', 'user b/1');
  t.is(res.status, 200);
  t.deepEqual(res.body.rc_grant, { attempted: true, ok: true, error: null });
  const call = stub.calls.at(-1)!;
  t.is(call.method, 'POST');
  t.is(call.path, '/v1/subscribers/user%20b%2F1/entitlements/pro/promotional');
  t.is(call.authorization, `Bearer ${PROVIDER_KEY}`);
  t.is((call.body as { end_time_ms: number }).end_time_ms, new Date(res.body.expires_at).getTime());

  await redeem('MIRROR2', 'user-c');
  t.deepEqual(stub.calls.at(-1)!.body, { duration: 'lifetime' });
});

test.serial('a provider failure is reported in rc_grant, never fails the grant, never leaks the key', async (t) => {
  stub.failWith = 500;
  try {
    const res = await redeem('MIRROR2', 'user-d');
    t.true(res.body.success);
    t.like(res.body.rc_grant, { attempted: true, ok: false });
    t.regex(res.body.rc_grant.error, /500/);
    t.false(JSON.stringify(res.body).includes(PROVIDER_KEY));
    const access = await sdkClient(h().baseUrl, seed.sdk_key).get('/access?app_user_id=user-d');
    t.true(access.body.has_access);
  } finally {
    stub.failWith = null;
  }
});
