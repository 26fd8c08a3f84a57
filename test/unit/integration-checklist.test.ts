// The integration checklist rules (lib/integration-checklist.ts) as labelled rows: which platforms count, when purchase
// validation is configured, when the provider webhook step applies, and that only production makes an app live.
import test from 'ava';
import { CHECKLIST_STEPS, evaluateChecklist, platformsInUse, type IntegrationFacts } from '../../lib/integration-checklist.js';

const AT = new Date('2026-01-02T03:04:05Z');
const WEBHOOK = 'https://svc.example/api/webhooks/subprovider/app_1';

const blank: IntegrationFacts = {
  appId: 'app_1', appCreatedAt: AT, campaigns: [], sdkInitializedAt: null, sdkInitMeta: {},
  providers: { ios_validation_provider: null, android_validation_provider: null }, storeCredentials: {}, webhookConnectedAt: null,
  lastSdkEvent: null, lastProviderWebhook: null, lastDirectPurchase: null, lastPurchaseEvent: null, attributedConversions: { production: 0, sandbox: 0 },
};

const complete: IntegrationFacts = {
  ...blank, campaigns: [{ id: 'cmp_1', name: 'Launch', status: 'active' }], sdkInitializedAt: AT,
  sdkInitMeta: { ios: { sdk_name: 'react-native', sdk_version: '1.6.1', app_version: '1.0', at: AT.toISOString() } },
  webhookConnectedAt: AT, lastSdkEvent: { at: AT, type: 'paywall_viewed' }, lastProviderWebhook: { at: AT, type: 'INITIAL_PURCHASE' },
  lastPurchaseEvent: { at: AT, type: 'INITIAL_PURCHASE', environment: 'PRODUCTION' }, attributedConversions: { production: 1, sandbox: 0 },
};

const done = (f: IntegrationFacts) => Object.fromEntries(evaluateChecklist(f, WEBHOOK).checklist.map((s) => [s.step, s.done]));

test('a complete integration is live with every step done, in the spec order, and no next action', (t) => {
  const out = evaluateChecklist(complete, WEBHOOK);
  t.deepEqual(out.checklist.map((s) => s.step), [...CHECKLIST_STEPS]);
  t.true(out.live);
  t.deepEqual(out.next_actions, []);
  t.is(out.checklist[2]!.evidence, 'ios: react-native 1.6.1 (app 1.0) at 2026-01-02T03:04:05.000Z');
});

test('a new app: only app_created is done and every other step has one next action', (t) => {
  const out = evaluateChecklist(blank, WEBHOOK);
  t.false(out.live);
  t.deepEqual(out.next_actions.map((a) => a.step), CHECKLIST_STEPS.slice(1));
});

const platforms: { label: string; facts: Partial<IntegrationFacts>; expected: string[] }[] = [
  { label: 'before any init both mobile platforms', facts: {}, expected: ['ios', 'android'] },
  { label: 'the platforms the SDK initialized on', facts: { sdkInitMeta: { web: { sdk_name: 'web' } } }, expected: ['web'] },
  { label: 'plus a platform switched to store-direct', facts: { sdkInitMeta: { ios: {} }, providers: { ios_validation_provider: null, android_validation_provider: 'google_play' } }, expected: ['ios', 'android'] },
];
for (const { label, facts, expected } of platforms) {
  test(`platforms in use: ${label}`, (t) => {
    t.deepEqual(platformsInUse({ ...blank, ...facts }), expected);
  });
}

const rows: { label: string; facts: Partial<IntegrationFacts>; expected: Record<string, boolean> }[] = [
  { label: 'provider path: a connected webhook configures validation and wires the webhook', facts: { webhookConnectedAt: AT }, expected: { validation_configured: true, subprovider_webhook_wired: true } },
  { label: 'provider path: a provider webhook without TEST counts too', facts: { lastProviderWebhook: { at: AT, type: 'RENEWAL' } }, expected: { validation_configured: true, subprovider_webhook_wired: true } },
  { label: 'the direct purchase webhook is a server-side path as well', facts: { lastDirectPurchase: { at: AT } }, expected: { validation_configured: true, subprovider_webhook_wired: true } },
  {
    label: 'all platforms store-direct with green credentials: no provider webhook needed',
    facts: { providers: { ios_validation_provider: 'app_store', android_validation_provider: 'google_play' }, storeCredentials: { ios: 'ok', android: 'ok' } },
    expected: { validation_configured: true, subprovider_webhook_wired: true },
  },
  {
    label: 'store-direct credentials that failed the check are not configured',
    facts: { providers: { ios_validation_provider: 'app_store', android_validation_provider: 'google_play' }, storeCredentials: { ios: 'ok', android: 'failed' } },
    expected: { validation_configured: false, subprovider_webhook_wired: true },
  },
  {
    label: 'mixed: store-direct iOS green but Android (initialized) on the provider path without a webhook',
    facts: { sdkInitMeta: { ios: {}, android: {} }, providers: { ios_validation_provider: 'app_store', android_validation_provider: null }, storeCredentials: { ios: 'ok' } },
    expected: { validation_configured: false, subprovider_webhook_wired: false },
  },
  { label: 'sandbox attributed conversions alone are not live', facts: { attributedConversions: { production: 0, sandbox: 3 } }, expected: { attributed_conversion: false } },
  { label: 'a paused campaign is not active', facts: { campaigns: [{ id: 'cmp_1', name: 'Launch', status: 'paused' }] }, expected: { campaign_active: false } },
];
for (const { label, facts, expected } of rows) {
  test(`checklist: ${label}`, (t) => {
    const provider = { webhookConnectedAt: null, lastProviderWebhook: null, lastDirectPurchase: null };
    t.like(done({ ...complete, ...provider, ...facts }), expected);
  });
}

test('store-direct on every platform in use gives the provider step the evidence store-direct', (t) => {
  const out = evaluateChecklist({ ...complete, providers: { ios_validation_provider: 'app_store', android_validation_provider: null }, storeCredentials: { ios: 'ok' }, webhookConnectedAt: null, lastProviderWebhook: null }, WEBHOOK);
  t.like(out.checklist[5], { step: 'subprovider_webhook_wired', done: true, evidence: 'store-direct' });
  t.true(out.live);
});
