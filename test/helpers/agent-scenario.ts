// The agent scenario of the tool-server proof (test/integration/mcp-agent-proof.test.ts), shared with the OAuth proof:
// through tools only, a new app goes from nothing to live. A creator joins over plain HTTP, the test integration streams
// its workflow's progress, the app side is the SDK package (@svc/sdk's React Native core: init, attribution after a
// referral click, identify, event, code, free access), the subscription provider's purchase is plain HTTP, and
// integration-status ends live. Then the SDK reports a signed purchase on a store-direct app. At most 12 tool calls.
import type { ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Harness } from './harness.js';
import { request } from './http.js';
import { ok, type McpSession } from './mcp.js';
import { nativeApp, tapReferralLink, UUID_V4 } from './sdk-app.js';
import { ANSWER_KEYS, signedTransaction, storeAccount, switchToStoreDirect, type StoreWorld } from './store-direct.js';
import { sendWebhook, subscription } from './subprovider-events.js';

export const MAX_TOOL_CALLS = 12;

export async function agentScenario(
  t: ExecutionContext,
  h: () => Harness,
  mcp: McpSession,
  authMode: 'agent_key' | 'oauth',
  world: StoreWorld,
): Promise<void> {
  const doctor = ok(await mcp.call('svc_doctor'));
  t.is(doctor.auth_mode, authMode);

  const provisioned = ok(
    await mcp.call('svc_provision', {
      app: {
        name: 'MCP Proof App',
        slug: `mcp-proof-${randomUUID().slice(0, 8)}`,
        ios_store_url: 'https://apps.apple.com/app/id123456789',
      },
      campaign: { name: 'Launch', commission_percentage: 25 },
      activate: true,
    }),
  );
  t.is(provisioned.campaign_status, 'active');
  const { app_id: appId, campaign_id: campaignId, sdk_key: sdkKey, webhook_secret: webhookSecret } = provisioned;
  t.truthy(webhookSecret, 'returned once, on creation, as by REST');

  // The app's code for its stack, pointing at this server with the app's own SDK key.
  const scaffold = ok(await mcp.call('svc_scaffold_full', { sdk: 'react-native', sdk_key: sdkKey }));
  const scaffoldCode = (scaffold.files as { code: string }[]).map((f) => f.code).join('\n');
  t.true(scaffoldCode.includes(`${h().baseUrl}/api`), 'the scaffold points at this server');
  t.true(scaffoldCode.includes(sdkKey as string), 'with the provisioned SDK key');

  const join = ok(await mcp.call('svc_get_join_link', { campaign_id: campaignId }));
  t.true(join.ready, JSON.stringify(join.warnings));
  t.is((await request(h().baseUrl, 'GET', new URL(join.url as string).pathname, { headers: { accept: 'text/html' } })).status, 200);
  const joined = await request(h().baseUrl, 'POST', `/api/public/campaigns/${campaignId}/join`, {
    body: { name: 'Morgan Creator', email: `morgan-${randomUUID()}@example.com`, social_handle: '@morgan' },
  });
  t.is(joined.status, 201, joined.text);
  const code = joined.body.code as string;

  const progress: { progress: number; message?: string }[] = [];
  const tested = ok(await mcp.call('svc_test_integration', { app_id: appId }, (p) => progress.push(p)));
  t.true(tested.passed, tested.message);
  t.regex(tested.workflow_id, new RegExp(`^test-integration/${appId}/`));
  const messages = progress.map((p) => p.message ?? '');
  t.log(messages.join(' | '));
  t.true(messages[0]!.startsWith(`started: workflow ${tested.workflow_id}`), messages[0]);
  for (const step of ['pickTestReferralCode', 'pushSandboxPurchase']) t.true(messages.includes(`step: ${step} done`), step);
  t.is(messages.at(-1), `done: workflow ${tested.workflow_id}`);
  t.deepEqual(
    progress.map((p) => p.progress),
    progress.map((_, i) => i + 1),
    'progress increases by one per notification',
  );
  const described = await h().temporal.workflow.getHandle(tested.workflow_id).describe();
  t.is(described.status.name, 'COMPLETED', 'an operator finds the same workflow in Temporal');

  // The app side is the SDK package (its React Native core, as the scaffold), on the phone's IP. A tap on the
  // creator's referral link from that phone; iOS hands the app no link parameters, so the install is matched by IP
  // and device.
  const ip = '198.51.100.77';
  const phone = nativeApp(ip);
  const init = await phone.client.initialize({ apiKey: sdkKey, baseUrl: `${h().baseUrl}/api`, storage: phone.store, platform: 'ios' });
  t.like(init, { app_id: appId, initialized: true, store_direct: false, attribution_window_hours: 72 });
  t.deepEqual(
    init.campaigns.map((c) => c.id),
    [campaignId],
  );
  const launchUrl = await tapReferralLink(h().baseUrl, provisioned.slug as string, code, ip);
  t.truthy(new URL(launchUrl).searchParams.get('svc_click'));
  const attribution = await phone.client.checkAttribution();
  t.like(attribution, { attributed: true, referral_code: code, attribution_method: 'ip_device_match', install_recorded: true });
  t.regex(attribution.clicked_at!, /^\d{4}-\d{2}-\d{2}T/);
  const user = `mcp-proof-${randomUUID()}`;
  const identified = await phone.client.identify(user);
  t.like(identified, { identified: true, app_user_id: user });
  t.is(typeof identified.attribution_backfilled, 'boolean');
  const viewed = await phone.client.trackEvent({ eventType: 'paywall_viewed', properties: { placement: 'onboarding' } });
  t.like(viewed, { tracked: true });
  t.regex(viewed.event_id!, UUID_V4);
  const applied = await phone.client.applyCode(` ${code.toLowerCase()} `);
  t.like(applied, {
    applied: true,
    valid: true,
    success: true,
    code,
    campaign: { id: campaignId, campaign_type: 'public', commission_percentage: 25 },
  });
  t.is(await phone.client.getReferralCode(), code);

  // A free-access code the agent creates; the signed-in user redeems it and the premium gate opens.
  const freeCode = `VIP${randomUUID().slice(0, 6).toUpperCase()}`;
  ok(
    await mcp.call('svc_create_free_code', {
      app_id: appId,
      code: freeCode,
      entitlement: 'premium',
      seat_limit: 5,
      access_duration_days: 30,
    }),
  );
  t.deepEqual(await phone.client.checkAccess(), { hasAccess: false, source: null, entitlement: null, expiresAt: null, code: null });
  const redeemed = await phone.client.applyCode(freeCode);
  t.like(redeemed, {
    applied: true,
    valid: true,
    campaign: { name: 'Free Access', campaign_type: 'FREE_ACCESS', commission_percentage: 0 },
    influencer: null,
  });
  const access = await phone.client.checkAccess();
  t.like(access, { hasAccess: true, source: 'comp', entitlement: 'premium', code: freeCode });
  t.is(await phone.client.getReferralCode(), code, 'the creator code stays the one purchases carry');

  // The subscription provider's production purchase for that user.
  const webhook = await sendWebhook(h().baseUrl, appId, webhookSecret, subscription(user, code)('initial_purchase'));
  t.is(webhook.status, 200, webhook.text);
  t.falsy(webhook.body.error, webhook.text);

  let status: any;
  for (let i = 0; i < 5; i += 1) {
    status = ok(await mcp.call('svc_integration_status', { app_id: appId }));
    if (status.live) break;
    await sleep(300);
  }
  t.true(status.live, JSON.stringify(status.checklist));
  t.true(status.attributed_conversion_count >= 1);

  await storeDirectPurchase(t, h, world);

  t.log(`tool calls: ${mcp.calls} (at most ${MAX_TOOL_CALLS})`);
  t.true(mcp.calls <= MAX_TOOL_CALLS, `${mcp.calls} tool calls`);
}

/**
 * The SDK on a store-direct app: another app whose iOS platform an agent switched to store-direct (credential upload,
 * green check against the stubs, activation); the app applies its creator's code and reports a signed transaction.
 */
async function storeDirectPurchase(t: ExecutionContext, h: () => Harness, world: StoreWorld): Promise<void> {
  const shop = await storeAccount(h());
  await switchToStoreDirect(h(), world, shop, 'ios');
  const phone = nativeApp('198.51.100.78');
  const init = await phone.client.initialize({
    apiKey: shop.sdk_key,
    baseUrl: `${h().baseUrl}/api`,
    storage: phone.store,
    platform: 'ios',
    autoCapture: false,
  });
  t.true(init.store_direct);
  const buyer = `store-buyer-${randomUUID()}`;
  await phone.client.identify(buyer);
  t.like(await phone.client.applyCode(shop.creator_code), { applied: true });
  const { jws } = signedTransaction(world, shop, { environment: 'Production' });
  const bought = await phone.client.reportPurchase({ platform: 'ios', signedTransaction: jws });
  t.deepEqual(Object.keys(bought).sort(), ANSWER_KEYS);
  t.like(bought, {
    success: true,
    validated: 'app_store',
    environment: 'PRODUCTION',
    event_type: 'INITIAL_PURCHASE',
    duplicate: false,
    recorded: true,
    result: { processed: true },
  });
  t.like(phone.net.calls.at(-1)!.body, { platform: 'ios', signedTransaction: jws, referralCode: shop.creator_code, appUserId: buyer });
  const again = await phone.client.reportPurchase({ platform: 'ios', signedTransaction: jws });
  t.deepEqual(again, { ...bought, duplicate: true }, 'reporting twice is safe');
}
