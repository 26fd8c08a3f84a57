// The client-side routes the integration checklist's texts name (lib/integration-checklist.ts words the rules; the
// routes are the API's: api/sdk/routes.ts mounts the SDK's under /api/sdk, api/webhooks the direct purchase webhook).
import type { ClientPaths } from '../../lib/integration-checklist.js';

export const CLIENT_PATHS: ClientPaths = {
  sdkInit: '/api/sdk/init',
  sdkEvent: '/api/sdk/event',
  sdkPurchase: '/api/sdk/purchase',
  directPurchaseWebhook: '/api/webhooks/purchase',
};
