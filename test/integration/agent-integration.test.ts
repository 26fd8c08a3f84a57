// The agent API's integration checks, over HTTP with a real worker: integration-status (the 8 steps in order, next
// actions naming their tool, campaign health; the purchase steps are done by purchases through the app's real path in
// any environment, never by test-integration), events/recent, test-integration
// (a sandbox purchase through the real conversion pipeline), verify-user-conversions, their guard and tenancy, and the
// issue's proof from outside: an agent key and plain HTTP take the seeded app to live.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { createCampaign } from '../../db/campaigns-writes.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { CHECKLIST_STEPS } from '../../lib/integration-checklist.js';
import { SCOPES } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' } });

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const get = (token: string, path: string) => agent(token, 'GET', path);

/** An app of its own (own organization, wallet, active campaign with one creator) and an all-scopes agent key for it. */
async function freshApp(): Promise<SeededApp & { key: string }> {
  await h.ready();
  const app = await seedApp(h().db);
  const { key } = await createAgentKey(h().db, { orgId: app.org_id, name: 'integration test', scopes: [...SCOPES] });
  return { ...app, key };
}

const stepsOf = (body: { checklist: { step: string; done: boolean }[] }) => Object.fromEntries(body.checklist.map((s) => [s.step, s.done]));

test('integration-status of a new app: the 8 steps in the spec order, next actions for the open ones, campaign health', async (t) => {
  const app = await freshApp();
  const res = await get(app.key, `/apps/${app.app_id}/integration-status`);
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.checklist.map((s: { step: string }) => s.step),
    [...CHECKLIST_STEPS],
  );
  t.deepEqual(stepsOf(res.body), {
    app_created: true,
    campaign_active: true,
    sdk_initialized: false,
    sdk_event_received: false,
    validation_configured: false,
    subprovider_webhook_wired: false,
    purchase_webhook_seen: false,
    attributed_conversion: false,
  });
  t.regex(res.body.checklist[1].evidence, new RegExp(app.campaign_id));
  t.like(res.body, {
    app_id: app.app_id,
    live: false,
    attributed_conversion_count: 0,
    production_attributed_conversion_count: 0,
    test_integration: null,
  });
  t.deepEqual(
    res.body.next_actions.map((a: { step: string }) => a.step),
    [
      'sdk_initialized',
      'sdk_event_received',
      'validation_configured',
      'subprovider_webhook_wired',
      'purchase_webhook_seen',
      'attributed_conversion',
      // Beside the checklist (issue 38): an app without the SDK is also offered attribution by store offer codes.
      'sdk_less_attribution',
    ],
  );
  t.deepEqual(res.body.sdk_less_attribution, {
    ready: false,
    missing: ['ios_store_notifications', 'android_store_notifications', 'active_offer_code'],
  });
  for (const a of res.body.next_actions) t.true(a.action.length > 0 && a.call.length > 0 && /^svc_[a-z_]+$/.test(a.next_tool), a.step);
  t.regex(
    res.body.next_actions.find((a: { step: string }) => a.step === 'subprovider_webhook_wired').action,
    new RegExp(`/api/webhooks/subprovider/${app.app_id}`),
  );
  t.like(
    res.body.next_actions.find((a: { step: string }) => a.step === 'attributed_conversion'),
    { next_tool: 'svc_test_integration', call: `POST /api/agent/apps/${app.app_id}/test-integration` },
  );
  t.like(
    res.body.next_actions.find((a: { step: string }) => a.step === 'subprovider_webhook_wired'),
    { next_tool: 'svc_setup_subprovider', call: `POST /api/agent/apps/${app.app_id}/setup-subprovider` },
  );
  t.like(res.body.campaign_health, { active_campaigns: 1 });
  t.like(res.body.campaign_health.campaigns[0], {
    campaign_id: app.campaign_id,
    creators: 1,
    clicks: 0,
    installs: 0,
    conversions: 0,
    commission_percentage: 30,
  });
});

test('integration-status: a paused campaign is the next action; the SDK init reports SDK, version and platform', async (t) => {
  const app = await freshApp();
  await h().db('campaigns').where('id', app.campaign_id).update({ status: 'paused' });
  await sdkClient(h().baseUrl, app.sdk_key).post('/init', {
    app_version: '2.0',
    sdk_version: '1.1.1',
    platform: 'android',
    sdk_name: 'android',
  });
  const res = await get(app.key, `/apps/${app.app_id}/integration-status`);
  t.like(stepsOf(res.body), { campaign_active: false, sdk_initialized: true });
  t.like(res.body.next_actions[0], {
    step: 'campaign_active',
    next_tool: 'svc_set_campaign_status',
    call: `POST /api/agent/campaigns/${app.campaign_id}/status`,
  });
  t.regex(res.body.checklist[2].evidence, /android: android 1\.1\.1 \(app 2\.0\) at \d{4}-/);
  t.deepEqual(res.body.campaign_health, { active_campaigns: 0, campaigns: [] });
});

test('integration-status: store-direct on every platform in use needs green credentials and no provider webhook', async (t) => {
  const app = await freshApp();
  await h().db('apps').where('id', app.app_id).update({ ios_validation_provider: 'app_store' });
  await sdkClient(h().baseUrl, app.sdk_key).post('/init', { app_version: '1.0', sdk_version: '1.1.1', platform: 'ios' });
  let res = await get(app.key, `/apps/${app.app_id}/integration-status`);
  t.like(stepsOf(res.body), { validation_configured: false, subprovider_webhook_wired: true });
  t.is(res.body.checklist[5].evidence, 'store-direct');
  t.regex(res.body.next_actions.find((a: { step: string }) => a.step === 'validation_configured').action, /validate-store-credentials/);
  await h()
    .db('store_credentials')
    .insert({
      app_id: app.app_id,
      platform: 'ios',
      ciphertext: Buffer.from('x'),
      iv: Buffer.from('x'),
      auth_tag: Buffer.from('x'),
      check_status: 'ok',
    });
  res = await get(app.key, `/apps/${app.app_id}/integration-status`);
  t.like(stepsOf(res.body), { validation_configured: true });
  t.regex(res.body.checklist[4].evidence, /ios: store-direct app_store, credentials green-checked/);
});

test('events/recent: SDK events and webhooks with their attribution flags, the environment filter and limit', async (t) => {
  const app = await freshApp();
  const sdk = sdkClient(h().baseUrl, app.sdk_key);
  await sdk.post('/event', {
    event_type: 'paywall_viewed',
    app_user_id: 'ev-user',
    referral_code: app.creator_code,
    event_id: randomUUID(),
  });
  await sdk.post('/event', { event_type: 'trial_started', app_user_id: 'ev-user' });
  const paid = await sendWebhook(
    h().baseUrl,
    app.app_id,
    app.webhook_secret,
    subscription('ev-user', app.creator_code)('initial_purchase'),
  );
  const organic = await sendWebhook(
    h().baseUrl,
    app.app_id,
    app.webhook_secret,
    subscription('ev-organic', null)('initial_purchase', { environment: 'SANDBOX' }),
  );
  t.is(organic.body.error, 'no referral code (organic purchase)');

  const all = await get(app.key, `/apps/${app.app_id}/events/recent`);
  t.is(all.status, 200, all.text);
  t.deepEqual(
    all.body.sdk_events.map((e: { event_type: string }) => e.event_type),
    ['trial_started', 'paywall_viewed'],
  );
  t.like(all.body.sdk_events[1], { app_user_id: 'ev-user', referral_code: app.creator_code, platform: null });
  t.deepEqual(Object.keys(all.body.sdk_events[0]).sort(), [
    'app_user_id',
    'created_at',
    'environment',
    'event_id',
    'event_type',
    'platform',
    'referral_code',
  ]);
  t.is(all.body.webhooks.length, 2);
  const [sandboxHook, productionHook] = all.body.webhooks;
  t.like(productionHook, {
    event_id: paid.body.event_id,
    event_type: 'INITIAL_PURCHASE',
    environment: 'PRODUCTION',
    app_user_id: 'ev-user',
    product_id: 'pro_monthly',
    attributed: true,
    organic: false,
    referral_code: app.creator_code,
    error: null,
    source: 'subprovider',
  });
  t.like(sandboxHook, {
    event_id: organic.body.event_id,
    environment: 'SANDBOX',
    attributed: false,
    organic: true,
    referral_code: null,
    error: 'no referral code (organic purchase)',
  });
  t.truthy(productionHook.received_at);

  const production = await get(app.key, `/apps/${app.app_id}/events/recent?environment=PRODUCTION&limit=1`);
  t.deepEqual(
    production.body.webhooks.map((w: { event_id: string }) => w.event_id),
    [paid.body.event_id],
  );
  t.is(production.body.sdk_events.length, 1, 'limit applies to each list; SDK events carry no environment and stay listed');
  const sandbox = await get(app.key, `/apps/${app.app_id}/events/recent?environment=SANDBOX`);
  t.deepEqual(
    sandbox.body.webhooks.map((w: { event_id: string }) => w.event_id),
    [organic.body.event_id],
  );

  for (const query of ['limit=0', 'limit=101', 'limit=x', 'environment=STAGING']) {
    const bad = await get(app.key, `/apps/${app.app_id}/events/recent?${query}`);
    t.is(bad.status, 422, query);
  }
});

test(
  'test-integration: a sandbox INITIAL_PURCHASE through the ' + 'real pipeline, attributed, simulated commission, wallet untouched',
  async (t) => {
    const app = await freshApp();
    const walletBefore = await getWalletTotals(h().db, app.org_id);
    const res = await agent(app.key, 'POST', `/apps/${app.app_id}/test-integration`);
    t.is(res.status, 200, res.text);
    const runId: string = res.body.run_id;
    t.like(res.body, {
      workflow_id: `test-integration/${app.app_id}/${runId}`,
      app_user_id: `svc_test_${runId}`,
      referral_code: app.creator_code,
      campaign_id: app.campaign_id,
      attributed: true,
      environment: 'SANDBOX',
      status: 'active',
      error: null,
      passed: true,
      conversion_workflow_id: `conversion/${app.app_id}/svc_test_${runId}`,
    });
    const conversion = await h().db('conversions').where('id', res.body.conversion_id).first();
    t.like(conversion, {
      app_id: app.app_id,
      environment: 'SANDBOX',
      attributed: true,
      referral_code: app.creator_code,
      app_user_id: `svc_test_${runId}`,
      status: 'active',
    });
    const commissions = await h().db('commissions').where('conversion_id', conversion.id).select('status', 'environment');
    t.deepEqual(commissions, [{ status: 'simulated', environment: 'SANDBOX' }]);
    t.deepEqual(await getWalletTotals(h().db, app.org_id), walletBefore);
    t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
      source: 'test_integration',
      event_type: 'INITIAL_PURCHASE',
      environment: 'SANDBOX',
    });

    const recent = await get(app.key, `/apps/${app.app_id}/events/recent?environment=SANDBOX`);
    t.like(recent.body.webhooks[0], {
      event_id: res.body.event_id,
      source: 'test_integration',
      attributed: true,
      referral_code: app.creator_code,
      app_user_id: `svc_test_${runId}`,
    });
    const verified = await get(app.key, `/apps/${app.app_id}/verify-user-conversions?app_user_id=svc_test_${runId}`);
    t.like(verified.body, { attributed: true, referral_code: app.creator_code });

    // The pipeline is proven, but the synthetic purchase completes no step (told apart by its source): it is reported
    // on its own, and the next action is a purchase through the app's real path (sandbox is enough).
    const status = await get(app.key, `/apps/${app.app_id}/integration-status`);
    t.like(status.body, {
      live: false,
      attributed_conversion_count: 0,
      production_attributed_conversion_count: 0,
      test_integration: { passed: true },
    });
    t.truthy(Date.parse(status.body.test_integration.last_run_at));
    t.like(stepsOf(status.body), { attributed_conversion: false, purchase_webhook_seen: false });
    t.regex(status.body.checklist[7].evidence, /test-integration ran .* completes no step/);
    const next = status.body.next_actions.find((a: { step: string }) => a.step === 'attributed_conversion');
    t.like(next, { next_tool: 'svc_verify_user_conversions', call: `GET /api/agent/apps/${app.app_id}/verify-user-conversions` });
    t.regex(next.action, /sandbox purchase is enough/);
    t.like(status.body.campaign_health.campaigns[0], { conversions: 0 });

    // Each run is a new test user and conversion.
    const again = await agent(app.key, 'POST', `/apps/${app.app_id}/test-integration`);
    t.is(again.status, 200, again.text);
    t.not(again.body.conversion_id, res.body.conversion_id);
  },
);

test('test-integration without an active campaign or without a creator is a 409 that says what to do', async (t) => {
  const paused = await freshApp();
  await h().db('campaigns').where('id', paused.campaign_id).update({ status: 'paused' });
  const res = await agent(paused.key, 'POST', `/apps/${paused.app_id}/test-integration`);
  t.is(res.status, 409, res.text);
  t.regex(res.body.detail, /active campaign with at least one creator code/);
  t.regex(res.body.detail, /\/status/);
  t.like(res.body, { next_tool: 'svc_get_join_link', call: 'GET /api/agent/campaigns/{campaign_id}/join-link' });

  await createCampaign(h().db, {
    appId: paused.app_id,
    orgId: paused.org_id,
    name: 'Nobody yet',
    campaignType: 'public',
    commissionPercentage: 20,
    status: 'active',
  });
  const noCreator = await agent(paused.key, 'POST', `/apps/${paused.app_id}/test-integration`);
  t.is(noCreator.status, 409, noCreator.text);
  t.regex(noCreator.body.detail, /invite|join-link/);
  t.is(
    await h()
      .db('purchase_events')
      .where('app_id', paused.app_id)
      .count<{ count: string }[]>('* as count')
      .then((r) => Number(r[0]!.count)),
    0,
  );
});

test("verify-user-conversions: app_user_id is required; a user's conversions and events, without amounts", async (t) => {
  const app = await freshApp();
  const missing = await get(app.key, `/apps/${app.app_id}/verify-user-conversions`);
  t.is(missing.status, 422);
  t.deepEqual(missing.body.detail[0].loc, ['query', 'app_user_id']);
  t.is((await get(app.key, `/apps/${app.app_id}/verify-user-conversions?app_user_id=`)).status, 422);

  const nobody = await get(app.key, `/apps/${app.app_id}/verify-user-conversions?app_user_id=nobody`);
  t.is(nobody.status, 200);
  t.like(nobody.body, {
    app_user_id: 'nobody',
    attributed: false,
    referral_code: null,
    user_attribution: null,
    conversions: [],
    events: [],
  });

  const sub = subscription('vu-user', app.creator_code);
  await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, sub('initial_purchase'));
  await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, sub('renewal'));
  const res = await get(app.key, `/apps/${app.app_id}/verify-user-conversions?app_user_id=vu-user`);
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    app_user_id: 'vu-user',
    attributed: true,
    referral_code: app.creator_code,
    user_attribution: { referral_code: app.creator_code, method: 'purchase_code', converted: true },
  });
  t.is(res.body.conversions.length, 1);
  t.like(res.body.conversions[0], {
    status: 'active',
    environment: 'PRODUCTION',
    product_id: 'pro_monthly',
    billing_cycles: 2,
    attributed: true,
    referral_code: app.creator_code,
  });
  t.truthy(res.body.conversions[0].conversion_id);
  t.truthy(res.body.conversions[0].created_at);
  t.deepEqual(
    res.body.events.map((e: { event_type: string }) => e.event_type),
    ['RENEWAL', 'INITIAL_PURCHASE'],
  );
  t.false(/price|micros|commission_micros/.test(res.text));
});

test("guard and tenancy: integration:verify is required (403 naming it), another organization's app is 404, SDK keys 401", async (t) => {
  const other = await freshApp();
  const readOnly = await createAgentKey(h().db, {
    orgId: seed.org_id,
    name: 'no verify',
    scopes: SCOPES.filter((s) => s !== 'integration:verify'),
  });
  const paths: [string, string][] = [
    ['GET', `/apps/${seed.app_id}/integration-status`],
    ['GET', `/apps/${seed.app_id}/events/recent`],
    ['POST', `/apps/${seed.app_id}/test-integration`],
    ['GET', `/apps/${seed.app_id}/verify-user-conversions?app_user_id=u`],
  ];
  for (const [method, path] of paths) {
    const forbidden = await agent(readOnly.key, method, path);
    t.is(forbidden.status, 403, `${method} ${path}`);
    t.regex(forbidden.body.detail, /integration:verify/);
    t.is((await agent(seed.sdk_key, method, path)).status, 401, `${method} ${path} with an SDK key`);
    t.is((await request(h().baseUrl, method, `/api/agent${path}`)).status, 401, `${method} ${path} without credentials`);
    const foreign = await agent(seed.agent_key, method, path.replace(seed.app_id, other.app_id));
    t.is(foreign.status, 404, `${method} ${path} of another organization`);
    t.is((await agent(seed.agent_key, method, path.replace(seed.app_id, 'app_doesnotexist'))).status, 404);
  }
  t.is(
    await h()
      .db('purchase_events')
      .where('app_id', other.app_id)
      .count<{ count: string }[]>('* as count')
      .then((r) => Number(r[0]!.count)),
    0,
  );
});

test('proof from outside: the seeded agent key and plain HTTP take the app from nothing to live', async (t) => {
  await h.ready();
  const key = seed.agent_key;
  const appPath = `/apps/${seed.app_id}`;
  const app = await get(key, appPath);
  t.is(app.status, 200);
  const { sdk_key: sdkKey, slug } = app.body as { sdk_key: string; slug: string };

  const before = await get(key, `${appPath}/integration-status`);
  t.like(before.body, { live: false, attributed_conversion_count: 0, production_attributed_conversion_count: 0 });
  t.true(before.body.next_actions.some((a: { step: string }) => a.step === 'sdk_initialized'));

  // A fan taps the creator's link on an iPhone, installs, opens the app.
  const ip = '198.51.100.77';
  const click = await request(h().baseUrl, 'GET', `/${slug}/${seed.creator_code}`, {
    headers: { 'user-agent': IPHONE_UA, 'x-forwarded-for': ip, accept: 'text/html' },
  });
  t.is(click.status, 302, click.text);
  const sdk = sdkClient(h().baseUrl, sdkKey, ip);
  const init = await sdk.post('/init', { app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios', sdk_name: 'react-native' });
  t.is(init.status, 200, init.text);
  const deviceId = randomUUID();
  const install = await sdk.post('/track-install', { platform: 'ios', device_id: deviceId });
  t.like(install.body, { attributed: true, referral_code: seed.creator_code, attribution_method: 'ip_device_match' });
  const user = `fan-${randomUUID()}`;
  const identified = await sdk.post('/identify', { app_user_id: user, device_id: deviceId, platform: 'ios' });
  t.like(identified.body, { identified: true, attribution_backfilled: true });
  t.is(
    (await sdk.post('/event', { event_type: 'paywall_viewed', app_user_id: user, referral_code: install.body.referral_code })).status,
    200,
  );

  const midway = await get(key, `${appPath}/integration-status`);
  t.like(stepsOf(midway.body), {
    sdk_initialized: true,
    sdk_event_received: true,
    validation_configured: false,
    purchase_webhook_seen: false,
  });
  t.like(midway.body.campaign_health.campaigns[0], { campaign_id: seed.campaign_id, clicks: 1, installs: 1, conversions: 0 });

  // The subscription provider reports the production purchase (the SDK set svc_code to the attributed code).
  const webhook = await sendWebhook(
    h().baseUrl,
    seed.app_id,
    seed.webhook_secret,
    subscription(user, install.body.referral_code)('initial_purchase'),
  );
  t.is(webhook.status, 200, webhook.text);
  t.falsy(webhook.body.error, webhook.text);

  const after = await get(key, `${appPath}/integration-status`);
  t.is(after.status, 200);
  t.true(after.body.live, JSON.stringify(after.body.checklist));
  t.true(after.body.attributed_conversion_count >= 1);
  t.is(after.body.production_attributed_conversion_count, after.body.attributed_conversion_count);
  t.true(after.body.checklist.every((s: { done: boolean }) => s.done));
  t.deepEqual(after.body.next_actions, []);
  t.like(after.body.campaign_health.campaigns[0], { conversions: 1 });
  const verified = await get(key, `${appPath}/verify-user-conversions?app_user_id=${user}`);
  t.like(verified.body, {
    attributed: true,
    referral_code: seed.creator_code,
    user_attribution: { referral_code: seed.creator_code, converted: true },
  });
});
