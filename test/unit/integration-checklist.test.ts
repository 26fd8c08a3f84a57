// The integration checklist rules (lib/integration-checklist.ts) as labelled rows: which platforms count, when purchase
// validation is configured, when the provider webhook step applies, that a purchase through the app's real path in any
// environment completes the purchase steps while test-integration completes none, and that each next action names
// its tool and REST call from the endpoint table.
import test from 'ava';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { CLIENT_PATHS } from '../../api/agent/client-paths.js';
import { nextAction } from '../../api/agent/next-action.js';
import { CHECKLIST_STEPS, evaluateChecklist as evaluate, platformsInUse, type IntegrationFacts } from '../../lib/integration-checklist.js';
import { blankFacts, FACTS_AT } from '../helpers/integration-facts.js';

const evaluateChecklist = (f: IntegrationFacts, webhook: string) => evaluate(f, webhook, nextAction, CLIENT_PATHS);

const AT = FACTS_AT;
const WEBHOOK = 'https://svc.example/api/webhooks/subprovider/app_1';

const blank = blankFacts;

const complete: IntegrationFacts = {
  ...blank,
  campaigns: [{ id: 'cmp_1', name: 'Launch', status: 'active' }],
  sdkInitializedAt: AT,
  sdkInitMeta: { ios: { sdk_name: 'react-native', sdk_version: '1.6.1', app_version: '1.0', at: AT.toISOString() } },
  webhookConnectedAt: AT,
  lastSdkEvent: { at: AT, type: 'paywall_viewed' },
  lastProviderWebhook: { at: AT, type: 'INITIAL_PURCHASE' },
  lastPurchaseEvent: { at: AT, type: 'INITIAL_PURCHASE', environment: 'PRODUCTION' },
  attributedConversions: { realPath: 1, production: 1 },
};

const done = (f: IntegrationFacts) => Object.fromEntries(evaluateChecklist(f, WEBHOOK).checklist.map((s) => [s.step, s.done]));

test('a complete integration is live with every step done, in the spec order, and no next action', (t) => {
  const out = evaluateChecklist(complete, WEBHOOK);
  t.deepEqual(
    out.checklist.map((s) => s.step),
    [...CHECKLIST_STEPS],
  );
  t.true(out.live);
  t.deepEqual(out.next_actions, []);
  t.is(out.checklist[2]!.evidence, 'ios: react-native 1.6.1 (app 1.0) at 2026-01-02T03:04:05.000Z');
});

test('a new app: only app_created is done and every other step has one next action', (t) => {
  const out = evaluateChecklist(blank, WEBHOOK);
  t.false(out.live);
  t.deepEqual(
    out.next_actions.map((a) => a.step),
    CHECKLIST_STEPS.slice(1),
  );
});

const platforms: { label: string; facts: Partial<IntegrationFacts>; expected: string[] }[] = [
  { label: 'before any init both mobile platforms', facts: {}, expected: ['ios', 'android'] },
  { label: 'the platforms the SDK initialized on', facts: { sdkInitMeta: { web: { sdk_name: 'web' } } }, expected: ['web'] },
  {
    label: 'plus a platform switched to store-direct',
    facts: { sdkInitMeta: { ios: {} }, providers: { ios_validation_provider: null, android_validation_provider: 'google_play' } },
    expected: ['ios', 'android'],
  },
];
for (const { label, facts, expected } of platforms) {
  test(`platforms in use: ${label}`, (t) => {
    t.deepEqual(platformsInUse({ ...blank, ...facts }), expected);
  });
}

const rows: { label: string; facts: Partial<IntegrationFacts>; expected: Record<string, boolean> }[] = [
  {
    label: 'provider path: a connected webhook configures validation and wires the webhook',
    facts: { webhookConnectedAt: AT },
    expected: { validation_configured: true, subprovider_webhook_wired: true },
  },
  {
    label: 'provider path: a provider webhook without TEST counts too',
    facts: { lastProviderWebhook: { at: AT, type: 'RENEWAL' } },
    expected: { validation_configured: true, subprovider_webhook_wired: true },
  },
  {
    label: 'the direct purchase webhook is a server-side path as well',
    facts: { lastDirectPurchase: { at: AT } },
    expected: { validation_configured: true, subprovider_webhook_wired: true },
  },
  {
    label: 'all platforms store-direct with green credentials: no provider webhook needed',
    facts: {
      providers: { ios_validation_provider: 'app_store', android_validation_provider: 'google_play' },
      storeCredentials: { ios: 'ok', android: 'ok' },
    },
    expected: { validation_configured: true, subprovider_webhook_wired: true },
  },
  {
    label: 'store-direct credentials that failed the check are not configured',
    facts: {
      providers: { ios_validation_provider: 'app_store', android_validation_provider: 'google_play' },
      storeCredentials: { ios: 'ok', android: 'failed' },
    },
    expected: { validation_configured: false, subprovider_webhook_wired: true },
  },
  {
    label: 'mixed: store-direct iOS green but Android (initialized) on the provider path without a webhook',
    facts: {
      sdkInitMeta: { ios: {}, android: {} },
      providers: { ios_validation_provider: 'app_store', android_validation_provider: null },
      storeCredentials: { ios: 'ok' },
    },
    expected: { validation_configured: false, subprovider_webhook_wired: false },
  },
  {
    label: "a sandbox purchase through the app's path completes the purchase steps (the checklist is not a statistic)",
    facts: {
      lastPurchaseEvent: { at: AT, type: 'INITIAL_PURCHASE', environment: 'SANDBOX' },
      attributedConversions: { realPath: 1, production: 0 },
    },
    expected: { purchase_webhook_seen: true, attributed_conversion: true },
  },
  {
    label: 'a passed test-integration alone completes no step',
    facts: {
      lastPurchaseEvent: null,
      attributedConversions: { realPath: 0, production: 0 },
      lastTestIntegration: { at: AT, attributed: true },
    },
    expected: { purchase_webhook_seen: false, attributed_conversion: false },
  },
  {
    label: 'a paused campaign is not active',
    facts: { campaigns: [{ id: 'cmp_1', name: 'Launch', status: 'paused' }] },
    expected: { campaign_active: false },
  },
];
for (const { label, facts, expected } of rows) {
  test(`checklist: ${label}`, (t) => {
    const provider = { webhookConnectedAt: null, lastProviderWebhook: null, lastDirectPurchase: null };
    t.like(done({ ...complete, ...provider, ...facts }), expected);
  });
}

test('store-direct on every platform in use gives the provider step the evidence store-direct', (t) => {
  const out = evaluateChecklist(
    {
      ...complete,
      providers: { ios_validation_provider: 'app_store', android_validation_provider: null },
      storeCredentials: { ios: 'ok' },
      webhookConnectedAt: null,
      lastProviderWebhook: null,
    },
    WEBHOOK,
  );
  t.like(out.checklist[5], { step: 'subprovider_webhook_wired', done: true, evidence: 'store-direct' });
  t.true(out.live);
});

test("every next action names a tool of the endpoint table (or the init scaffold for app-side steps) and that row's REST call", (t) => {
  const byTool = new Map(AGENT_ENDPOINTS.map((e) => [e.tool, e]));
  const actions = evaluateChecklist(blank, WEBHOOK).next_actions;
  t.is(actions.length, CHECKLIST_STEPS.length - 1);
  for (const a of actions) {
    if (a.next_tool === 'svc_scaffold_init') {
      t.regex(a.call, /^SDK \w+ \(POST \/api\/sdk\/(init|event)\)$/, a.step);
      continue;
    }
    const row = byTool.get(a.next_tool);
    t.truthy(row, a.step);
    t.is(a.call, `${row!.method.toUpperCase()} /api/agent${row!.path.replace('{app_id}', 'app_1')}`, a.step);
  }
  t.like(
    actions.find((a) => a.step === 'attributed_conversion'),
    { next_tool: 'svc_test_integration', call: 'POST /api/agent/apps/app_1/test-integration' },
  );
  const afterTest = evaluateChecklist({ ...blank, lastTestIntegration: { at: AT, attributed: true } }, WEBHOOK).next_actions;
  t.like(
    afterTest.find((a) => a.step === 'attributed_conversion'),
    { next_tool: 'svc_verify_user_conversions', call: 'GET /api/agent/apps/app_1/verify-user-conversions' },
  );
  t.regex(afterTest.find((a) => a.step === 'attributed_conversion')!.action, /sandbox purchase is enough/);
});

test('nextAction fills the path parameters it is given and refuses a tool no row serves', (t) => {
  t.deepEqual(nextAction('svc_set_campaign_status', { campaign_id: 'cmp_9' }), {
    next_tool: 'svc_set_campaign_status',
    call: 'POST /api/agent/campaigns/cmp_9/status',
  });
  t.deepEqual(nextAction('svc_invite_creators_batch'), {
    next_tool: 'svc_invite_creators_batch',
    call: 'POST /api/agent/campaigns/{campaign_id}/invite',
  });
  t.throws(() => nextAction('svc_no_such_tool'), { message: /svc_no_such_tool/ });
});
