// The facts of a new app that has done nothing yet (lib/integration-checklist.ts IntegrationFacts), for the unit tests
// of the checklist and of the SDK-less readiness: each test spreads what its row changes over it.
import type { IntegrationFacts } from '../../lib/integration-checklist.js';

export const FACTS_AT = new Date('2026-01-02T03:04:05Z');

export const blankFacts: IntegrationFacts = {
  appId: 'app_1',
  appCreatedAt: FACTS_AT,
  campaigns: [],
  sdkInitializedAt: null,
  sdkInitMeta: {},
  providers: { ios_validation_provider: null, android_validation_provider: null },
  storeCredentials: {},
  webhookConnectedAt: null,
  lastSdkEvent: null,
  lastProviderWebhook: null,
  lastDirectPurchase: null,
  lastPurchaseEvent: null,
  attributedConversions: { realPath: 0, production: 0 },
  lastTestIntegration: null,
};
