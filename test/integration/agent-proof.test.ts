// The proof from outside, end to end through public surfaces only: an agent with nothing but an agent key
// provisions an app, creates and activates a campaign, a creator joins through the public join endpoint, the app
// side runs as plain HTTP (link click, init, track-install, identify, event), the subscription provider reports a
// production purchase, and integration-status ends live with an attributed conversion.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { request } from '../helpers/http.js';
import { IPHONE_UA, sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

// The seed provides the organization, its wallet (1000 USD) and the agent key; its own app is not used.
const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' } });

test('an agent key alone takes a new app from nothing to live', async (t) => {
  const agent = (method: string, path: string, body?: unknown) =>
    request(h().baseUrl, method, `/api/agent${path}`, { token: seed.agent_key, body });

  const provisioned = await agent('POST', '/provision', {
    app: { name: 'Proof App', slug: `proof-${randomUUID().slice(0, 8)}`, ios_store_url: 'https://apps.apple.com/app/id123456789' },
    campaign: { name: 'Launch', commission_percentage: 25 },
  });
  t.is(provisioned.status, 201, provisioned.text);
  const {
    app_id: appId,
    sdk_key: sdkKey,
    webhook_secret: webhookSecret,
  } = provisioned.body as { app_id: string; sdk_key: string; webhook_secret: string };
  t.truthy(webhookSecret);

  const created = await agent('POST', `/apps/${appId}/campaigns`, {
    name: 'Creators 30%',
    commission_percentage: 30,
    campaign_type: 'public',
  });
  t.is(created.status, 201, created.text);
  t.is(created.body.status, 'draft');
  const campaignId = created.body.id as string;
  const activated = await agent('POST', `/campaigns/${campaignId}/status`, { status: 'active' });
  t.is(activated.status, 200, activated.text);

  const joined = await request(h().baseUrl, 'POST', `/api/public/campaigns/${campaignId}/join`, {
    body: { name: 'Casey Creator', email: `casey-${randomUUID()}@example.com`, social_handle: '@casey' },
  });
  t.is(joined.status, 201, joined.text);
  const code = joined.body.code as string;

  const app = await agent('GET', `/apps/${appId}`);
  const ip = '198.51.100.201';
  const click = await request(h().baseUrl, 'GET', `/${app.body.slug}/${code}`, {
    headers: { 'user-agent': IPHONE_UA, 'x-forwarded-for': ip, accept: 'text/html' },
  });
  t.is(click.status, 302, click.text);
  const sdk = sdkClient(h().baseUrl, sdkKey, ip);
  t.is((await sdk.post('/init', { app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios' })).status, 200);
  const deviceId = randomUUID();
  const install = await sdk.post('/track-install', { platform: 'ios', device_id: deviceId });
  t.like(install.body, { attributed: true, referral_code: code });
  const user = `proof-${randomUUID()}`;
  t.like((await sdk.post('/identify', { app_user_id: user, device_id: deviceId })).body, { attribution_backfilled: true });
  t.is((await sdk.post('/event', { event_type: 'paywall_viewed', app_user_id: user })).status, 200);

  const webhook = await sendWebhook(h().baseUrl, appId, webhookSecret, subscription(user, code)('initial_purchase'));
  t.is(webhook.status, 200, webhook.text);
  t.falsy(webhook.body.error, webhook.text);

  const status = await agent('GET', `/apps/${appId}/integration-status`);
  t.is(status.status, 200, status.text);
  t.true(status.body.live, JSON.stringify(status.body.checklist));
  t.true(status.body.attributed_conversion_count >= 1);
});
