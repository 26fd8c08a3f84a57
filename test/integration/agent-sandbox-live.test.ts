// An agent proves an integration with a sandbox purchase (issue 24), end to end from a fresh organization through the
// tool server and public HTTP, on the real Temporal pipeline: provision, a creator joins (public join API), the app's
// SDK initializes and sends an event, the provider's TEST webhook, then one SANDBOX INITIAL_PURCHASE with the
// creator's code: the checklist is live with attributed_conversion_count 1 and production_attributed_conversion_count
// 0, while stats stay production-only. A parallel organization that does everything but the real purchase and runs
// test-integration instead stays not live: the synthetic purchase completes no step and is reported on its own. The
// other real paths count too: a sandbox purchase reported store-direct (/sdk/purchase) and the direct purchase
// webhook (which records production purchases).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { addMembership, createOrganization, createUser } from '../../db/organizations-writes.js';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { toMicros } from '../../lib/money.js';
import { SCOPES } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { connectMcp, ok, type McpSession } from '../helpers/mcp.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { reportPurchase, signedTransaction, storeAccount, switchToStoreDirect, useStoreWorld } from '../helpers/store-direct.js';
import { providerEvent, sendWebhook, subscription } from '../helpers/subprovider-events.js';

const { h } = useSeededHarness(test);
// Apple's API and the ECB as stubs, for the store-direct and direct-webhook paths.
const world = useStoreWorld(test, h);

/** A new organization with nothing in it but a funded wallet, its owner, and an all-scopes agent key of that owner. */
async function freshOrganization(): Promise<{ orgId: string; key: string }> {
  await h.ready();
  const tag = randomUUID().slice(0, 8);
  return h().db.transaction(async (trx) => {
    const user = await createUser(trx, { email: `owner-${tag}@example.com`, passwordHash: null });
    const org = await createOrganization(trx, { name: `Fresh ${tag}`, createdByUserId: user.id });
    await addMembership(trx, org.id, user.id, 'owner');
    await appendLedgerEntry(trx, {
      orgId: org.id,
      entryType: 'topup',
      balanceDeltaMicros: toMicros(1000),
      reservedDeltaMicros: 0,
      idempotencyKey: `topup:test:${org.id}`,
      memo: 'test funds',
      createdBy: 'test',
    });
    const key = await createAgentKey(trx, { orgId: org.id, name: 'agent', scopes: SCOPES, createdByUserId: user.id });
    return { orgId: org.id, key: key.key };
  });
}

/**
 * Provision through the tool server (activate left out: the funded wallet activates), a creator joins, the app's SDK runs, the provider
 * sends TEST.
 */
async function integrateUpToThePurchase(mcp: McpSession, name: string) {
  const provisioned = ok(await mcp.call('svc_provision', { app: { name }, campaign: { name: 'Launch', commission_percentage: 20 } }));
  const { app_id: appId, campaign_id: campaignId, sdk_key: sdkKey, webhook_secret: webhookSecret } = provisioned;
  const joined = await request(h().baseUrl, 'POST', `/api/public/campaigns/${campaignId}/join`, {
    body: { name: 'Sam Creator', email: `sam-${randomUUID()}@example.com`, social_handle: '@sam' },
  });
  const sdk = sdkClient(h().baseUrl, sdkKey as string);
  const init = await sdk.post('/init', { app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios', sdk_name: 'react-native' });
  const user = `fan-${randomUUID()}`;
  const event = await sdk.post('/event', { event_type: 'paywall_viewed', app_user_id: user, referral_code: joined.body.code });
  const testHook = await sendWebhook(
    h().baseUrl,
    appId,
    webhookSecret,
    providerEvent('test', { id: `test-${randomUUID()}`, event_timestamp_ms: Date.now() }),
  );
  return {
    provisioned,
    appId,
    campaignId,
    webhookSecret,
    code: joined.body.code as string,
    user,
    statuses: [joined.status, init.status, event.status, testHook.status],
  };
}

const stepsOf = (body: { checklist: { step: string; done: boolean }[] }) => Object.fromEntries(body.checklist.map((s) => [s.step, s.done]));

test(
  'from a fresh organization, one sandbox purchase through the ' + 'provider webhook makes the app live; stats stay production-only',
  async (t) => {
    const { orgId, key } = await freshOrganization();
    const mcp = await connectMcp(h().baseUrl, key);
    try {
      t.regex(mcp.client.getInstructions() ?? '', /sandbox purchase/i);
      const run = await integrateUpToThePurchase(mcp, `Sandbox Live ${randomUUID().slice(0, 6)}`);
      t.like(run.provisioned, { org_id: orgId, campaign_status: 'active', created: { org: false, app: true, campaign: true } });
      t.regex(run.provisioned.purchase_api_key, /^it_srv_/);
      t.deepEqual(run.statuses, [201, 200, 200, 200]);

      const before = ok(await mcp.call('svc_integration_status', { app_id: run.appId }));
      t.like(before, { live: false, attributed_conversion_count: 0, production_attributed_conversion_count: 0, test_integration: null });
      t.like(stepsOf(before), {
        app_created: true,
        campaign_active: true,
        sdk_initialized: true,
        sdk_event_received: true,
        validation_configured: true,
        subprovider_webhook_wired: true,
        purchase_webhook_seen: false,
        attributed_conversion: false,
      });
      t.deepEqual(
        before.next_actions.map((a: { next_tool: string }) => a.next_tool),
        ['svc_recent_events', 'svc_test_integration'],
      );

      // The developer buys in the sandbox with the creator's code; the provider reports it through the real pipeline.
      const hook = await sendWebhook(
        h().baseUrl,
        run.appId,
        run.webhookSecret,
        subscription(run.user, run.code)('initial_purchase', { environment: 'SANDBOX' }),
      );
      t.is(hook.status, 200, hook.text);
      t.falsy(hook.body.error, hook.text);

      const after = ok(await mcp.call('svc_integration_status', { app_id: run.appId }));
      t.true(after.live, JSON.stringify(after.checklist));
      t.like(after, {
        attributed_conversion_count: 1,
        production_attributed_conversion_count: 0,
        test_integration: null,
        next_actions: [],
      });
      t.regex(after.checklist[6].evidence, /INITIAL_PURCHASE \(SANDBOX\)/);
      const rest = await request(h().baseUrl, 'GET', `/api/agent/apps/${run.appId}/integration-status`, { token: key });
      t.like(rest.body, { live: true, attributed_conversion_count: 1, production_attributed_conversion_count: 0 });

      // The checklist is not a statistic: health and analytics count production only.
      t.like(after.campaign_health.campaigns[0], { campaign_id: run.campaignId, creators: 1, conversions: 0 });
      const overview = ok(await mcp.call('svc_get_analytics_overview', { app_id: run.appId }));
      t.is(overview.conversions, 0);
    } finally {
      await mcp.close();
    }
  },
);

test('a parallel fresh organization with only test-integration stays not live: the synthetic purchase completes no step', async (t) => {
  const { key } = await freshOrganization();
  const mcp = await connectMcp(h().baseUrl, key);
  try {
    const run = await integrateUpToThePurchase(mcp, `Test Only ${randomUUID().slice(0, 6)}`);
    t.deepEqual(run.statuses, [201, 200, 200, 200]);
    const tested = ok(await mcp.call('svc_test_integration', { app_id: run.appId }));
    t.true(tested.passed, tested.message);
    t.is(tested.environment, 'SANDBOX');
    t.regex(tested.message, /completes no checklist step/);

    const status = ok(await mcp.call('svc_integration_status', { app_id: run.appId }));
    t.false(status.live);
    t.like(status, { attributed_conversion_count: 0, production_attributed_conversion_count: 0, test_integration: { passed: true } });
    t.like(stepsOf(status), {
      sdk_initialized: true,
      subprovider_webhook_wired: true,
      purchase_webhook_seen: false,
      attributed_conversion: false,
    });
    const next = status.next_actions.find((a: { step: string }) => a.step === 'attributed_conversion');
    t.like(next, { next_tool: 'svc_verify_user_conversions', call: `GET /api/agent/apps/${run.appId}/verify-user-conversions` });
    t.regex(next.action, /sandbox purchase is enough/);
  } finally {
    await mcp.close();
  }
});

test(
  'the other real paths count as well: a sandbox purchase ' + 'reported store-direct, then the direct purchase webhook (production)',
  async (t) => {
    const shop = await storeAccount(h());
    await switchToStoreDirect(h(), world(), shop, 'ios');
    const mcp = await connectMcp(h().baseUrl, shop.agentKey);
    try {
      const { jws } = signedTransaction(world(), shop, { environment: 'Sandbox', price: 4990, currency: 'USD' });
      const bought = await reportPurchase(h(), shop, {
        platform: 'ios',
        signed_transaction: jws,
        referral_code: shop.creator_code,
        app_user_id: `tester-${randomUUID()}`,
      });
      t.like(bought.body, { success: true, environment: 'SANDBOX', recorded: true }, bought.text);
      const sandbox = ok(await mcp.call('svc_integration_status', { app_id: shop.app_id }));
      t.like(stepsOf(sandbox), { purchase_webhook_seen: true, attributed_conversion: true });
      t.like(sandbox, { attributed_conversion_count: 1, production_attributed_conversion_count: 0 });

      const direct = await request(h().baseUrl, 'POST', '/api/webhooks/purchase', {
        headers: { authorization: `Bearer ${shop.purchase_api_key}` },
        body: {
          transaction_id: `GPA.${randomUUID()}`,
          app_user_id: `u-${randomUUID()}`,
          product_id: 'coins_500',
          price: 19.99,
          currency: 'USD',
          svc_code: shop.creator_code,
          platform: 'ios',
        },
      });
      t.is(direct.status, 200, direct.text);
      t.falsy(direct.body.error, direct.text);
      const both = ok(await mcp.call('svc_integration_status', { app_id: shop.app_id }));
      t.like(both, { attributed_conversion_count: 2, production_attributed_conversion_count: 1 });
      t.like(both.campaign_health.campaigns[0], { conversions: 1 });
    } finally {
      await mcp.close();
    }
  },
);
