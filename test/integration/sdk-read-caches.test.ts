// With the change feed (as `svc api` runs), init and validate-code answer from memory, and any committed change
// to what they depend on, whoever writes it, is visible as soon as the feed has delivered it.
import test from 'ava';
import { createCampaign } from '../../db/campaigns-writes.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, caches: true });
const initBody = { app_version: '1.0', sdk_version: '1.6.1', platform: 'android' };

async function queriesDuring(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const count = () => {
    n += 1;
  };
  h().db.on('query', count);
  try {
    await fn();
  } finally {
    h().db.removeListener('query', count);
  }
  return n;
}

test.serial('repeated init and validate-code calls cost no database query', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  await client.post('/init', initBody);
  await client.post('/validate-code', { code: seed.creator_code });
  t.is(await queriesDuring(() => client.post('/init', initBody)), 0);
  t.is(await queriesDuring(() => client.post('/validate-code', { code: seed.creator_code })), 0);
  t.is(await queriesDuring(() => client.post('/validate-code', { code: 'NOSUCHCODE' })), 2, 'first miss reads');
  t.is(await queriesDuring(() => client.post('/validate-code', { code: 'NOSUCHCODE' })), 0, 'misses are cached too');
});

test.serial('a new active campaign shows in init once the feed delivered the change', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  t.is((await client.post('/init', initBody)).body.campaigns.length, 1);
  await createCampaign(h().db, {
    appId: seed.app_id,
    orgId: seed.org_id,
    name: 'Summer',
    campaignType: 'public',
    commissionPercentage: 20,
    status: 'active',
  });
  await h().syncCaches();
  t.deepEqual((await client.post('/init', initBody)).body.campaigns.map((c: { name: string }) => c.name).sort(), [
    'Launch campaign',
    'Summer',
  ]);
});

test.serial('an app setting change reaches init; an SDK marker write does not flush the cache', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  await client.post('/init', initBody);
  await h().db('apps').where('id', seed.app_id).update({ attribution_window_hours: 48 });
  await h().syncCaches();
  t.is((await client.post('/init', initBody)).body.attribution_window_hours, 48);
  await client.post('/init', { ...initBody, sdk_version: '9.9.9' }); // new SDK identity: marker written
  await h().syncCaches();
  t.is(await queriesDuring(() => client.post('/init', initBody)), 0);
});

test.serial('pausing a campaign, blocking a free code or renaming a creator is seen by validate-code at once', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  const db = h().db;
  t.true((await client.post('/validate-code', { code: seed.creator_code })).body.valid);
  await db('campaigns').where('id', seed.campaign_id).update({ status: 'paused' });
  await h().syncCaches();
  t.is((await client.post('/validate-code', { code: seed.creator_code })).body.error_code, 'CODE_NOT_FOUND');
  await db('campaigns').where('id', seed.campaign_id).update({ status: 'active' });
  await h().syncCaches();
  t.true((await client.post('/validate-code', { code: seed.creator_code })).body.valid);

  const creatorId = (await db('creator_codes').where('code', seed.creator_code).first('creator_id')).creator_id;
  await db('creators').where('id', creatorId).update({ social_handle: '@renamed' });
  await h().syncCaches();
  t.is((await client.post('/validate-code', { code: seed.creator_code })).body.influencer.social_handle, '@renamed');

  await db('free_access_codes').insert({ app_id: seed.app_id, code: 'FREEPASS', entitlement: 'premium' });
  await h().syncCaches();
  t.true((await client.post('/validate-code', { code: 'FREEPASS' })).body.valid);
  await db('free_access_codes').where({ app_id: seed.app_id, code: 'FREEPASS' }).update({ blocked: true });
  await h().syncCaches();
  t.is((await client.post('/validate-code', { code: 'FREEPASS' })).body.error_code, 'CODE_EXPIRED');
});

test.serial('a free code expiring by the clock is seen without any change notification', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  await h()
    .db('free_access_codes')
    .insert({ app_id: seed.app_id, code: 'SOONGONE', entitlement: 'premium', expires_at: new Date(Date.now() + 1500) });
  await h().syncCaches();
  t.true((await client.post('/validate-code', { code: 'SOONGONE' })).body.valid);
  await new Promise((r) => setTimeout(r, 1600));
  t.is((await client.post('/validate-code', { code: 'SOONGONE' })).body.error_code, 'CODE_EXPIRED');
});

test.serial('when the feed connection drops, nothing stale is served and caching resumes after it reconnects', async (t) => {
  const client = sdkClient(h().baseUrl, seed.sdk_key);
  const db = h().db;
  t.true((await client.post('/validate-code', { code: seed.creator_code })).body.valid);
  await db.raw(
    'select pg_terminate_backend(pid) from pg_stat_activity where ' +
      "application_name = 'svc-app-change-feed' and datname = current_database()",
  );
  await new Promise((r) => setTimeout(r, 300)); // the client notices the closed socket
  await db('campaigns').where('id', seed.campaign_id).update({ status: 'paused' }); // a change the feed cannot hear
  try {
    t.is((await client.post('/validate-code', { code: seed.creator_code })).body.error_code, 'CODE_NOT_FOUND');
  } finally {
    await db('campaigns').where('id', seed.campaign_id).update({ status: 'active' });
  }
  let cachedAgain = false;
  for (let i = 0; i < 100 && !cachedAgain; i++) {
    // Once the feed is live again, every change committed before (the campaign made active above) is delivered first:
    // on a loaded machine its notification can lag the next request, which would then read a cached answer of before.
    await h().syncCaches();
    await client.post('/validate-code', { code: seed.creator_code });
    cachedAgain = (await queriesDuring(() => client.post('/validate-code', { code: seed.creator_code }))) === 0;
    if (!cachedAgain) await new Promise((r) => setTimeout(r, 100));
  }
  t.true(cachedAgain, 'the feed reconnected and answers come from memory again');
  t.true((await client.post('/validate-code', { code: seed.creator_code })).body.valid);
});

test.serial('a regenerated webhook secret is refused at once by the cached per-app webhook route', async (t) => {
  const { generateToken, hashToken, WEBHOOK_SECRET_PREFIX } = await import('../../lib/credentials.js');
  const { providerEvent, sendWebhook } = await import('../helpers/subprovider-events.js');
  const test1 = providerEvent('test', { id: `t-${Date.now()}` });
  t.is((await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, test1)).status, 200);
  const sql: string[] = [];
  const record = (q: { sql: string }) => {
    sql.push(q.sql);
  };
  h().db.on('query', record);
  try {
    t.is((await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, test1)).status, 200);
  } finally {
    h().db.removeListener('query', record);
  }
  t.false(
    sql.some((q) => q.includes('webhook_secret_hash')),
    `the secret digest came from memory: ${sql.join(' | ')}`,
  );
  const fresh = generateToken(WEBHOOK_SECRET_PREFIX);
  await h()
    .db('apps')
    .where('id', seed.app_id)
    .update({ webhook_secret_hash: hashToken(fresh) });
  await h().syncCaches();
  t.is((await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, test1)).status, 401);
  t.is((await sendWebhook(h().baseUrl, seed.app_id, fresh, providerEvent('test', { id: `t2-${Date.now()}` }))).status, 200);
});

test.serial("the webhook route caches the app's store validation choice, and a switch reaches it through the feed", async (t) => {
  const { providerEvent, sendWebhook } = await import('../helpers/subprovider-events.js');
  const { storeDirectDuplicateReason } = await import('../../actions/standalone-event.js');
  const { generateToken, hashToken, WEBHOOK_SECRET_PREFIX } = await import('../../lib/credentials.js');
  const secret = generateToken(WEBHOOK_SECRET_PREFIX); // the test above rotated the seeded one
  await h()
    .db('apps')
    .where('id', seed.app_id)
    .update({ webhook_secret_hash: hashToken(secret) });
  const purchase = (store: string) =>
    providerEvent('initial_purchase', {
      id: `vp-${store}-${Date.now()}-${Math.random()}`,
      store,
      transaction_id: `9${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    });
  await h().db('apps').where('id', seed.app_id).update({ ios_validation_provider: 'app_store' });
  await h().syncCaches();
  const first = await sendWebhook(h().baseUrl, seed.app_id, secret, purchase('APP_STORE'));
  t.is(first.status, 200);
  t.is(first.body.error, storeDirectDuplicateReason('ios'));
  const sql: string[] = [];
  const record = (q: { sql: string }) => {
    sql.push(q.sql);
  };
  h().db.on('query', record);
  try {
    t.is((await sendWebhook(h().baseUrl, seed.app_id, secret, purchase('APP_STORE'))).body.error, storeDirectDuplicateReason('ios'));
  } finally {
    h().db.removeListener('query', record);
  }
  t.false(
    sql.some((q) => q.includes('validation_provider')),
    `the validation choice came from memory: ${sql.join(' | ')}`,
  );
  // Another process switches Android to store-direct: a stale choice would send this event to its conversion (no
  // worker runs here), the fresh one records it as counted by the store-direct path.
  await h().db('apps').where('id', seed.app_id).update({ ios_validation_provider: null, android_validation_provider: 'google_play' });
  await h().syncCaches();
  const android = await sendWebhook(h().baseUrl, seed.app_id, secret, purchase('PLAY_STORE'));
  t.is(android.status, 200);
  t.is(android.body.error, storeDirectDuplicateReason('android'));
  await h().db('apps').where('id', seed.app_id).update({ android_validation_provider: null });
});
