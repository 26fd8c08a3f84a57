// The agent scenario of the tool-server proof (test/integration/mcp-agent-proof.test.ts), shared with the OAuth proof:
// through tools only, a new app goes from nothing to live. A creator joins over plain HTTP, the test integration streams
// its workflow's progress, the app side and the subscription provider's purchase are plain HTTP, and
// integration-status ends live. At most 12 tool calls.
import type { ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Harness } from './harness.js';
import { request } from './http.js';
import { ok, type McpSession } from './mcp.js';
import { IPHONE_UA, sdkClient } from './sdk.js';
import { sendWebhook, subscription } from './subprovider-events.js';

export const MAX_TOOL_CALLS = 12;

export async function agentScenario(t: ExecutionContext, h: () => Harness, mcp: McpSession, authMode: 'agent_key' | 'oauth'): Promise<void> {
  const doctor = ok(await mcp.call('svc_doctor'));
  t.is(doctor.auth_mode, authMode);

  const provisioned = ok(await mcp.call('svc_provision', {
    app: { name: 'MCP Proof App', slug: `mcp-proof-${randomUUID().slice(0, 8)}`, ios_store_url: 'https://apps.apple.com/app/id123456789' },
    campaign: { name: 'Launch', commission_percentage: 25 },
    activate: true,
  }));
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
  t.deepEqual(progress.map((p) => p.progress), progress.map((_, i) => i + 1), 'progress increases by one per notification');
  const described = await h().temporal.workflow.getHandle(tested.workflow_id).describe();
  t.is(described.status.name, 'COMPLETED', 'an operator finds the same workflow in Temporal');

  // The app side, as the SDK would do it, and the provider's production purchase.
  const ip = '198.51.100.77';
  const sdk = sdkClient(h().baseUrl, sdkKey, ip);
  t.is((await sdk.post('/init', { app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios' })).status, 200);
  // A tap on the creator's referral link; the app reads svc_code and svc_click from the link it was opened with.
  const click = await request(h().baseUrl, 'GET', `/${provisioned.slug}/${code}`, { headers: { 'user-agent': IPHONE_UA, 'x-forwarded-for': ip, accept: 'text/html' } });
  t.is(click.status, 302, click.text);
  const clickId = new URL(click.headers.get('location')!).searchParams.get('svc_click');
  t.truthy(clickId);
  const install = await sdk.post('/track-install', { platform: 'ios', device_id: randomUUID(), referral_code: code, click_id: clickId });
  t.like(install.body, { attributed: true, referral_code: code, attribution_method: 'link_param' });
  const user = `mcp-proof-${randomUUID()}`;
  t.is((await sdk.post('/event', { event_type: 'paywall_viewed', app_user_id: user })).status, 200);
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

  t.log(`tool calls: ${mcp.calls} (at most ${MAX_TOOL_CALLS})`);
  t.true(mcp.calls <= MAX_TOOL_CALLS, `${mcp.calls} tool calls`);
}
