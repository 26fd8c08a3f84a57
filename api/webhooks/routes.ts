// Inbound webhooks (spec "Inbound webhooks"): the subscription provider's, direct purchases, and Stripe's (top-ups
// and saved cards, signed by Stripe), the App Store's server notifications and Google Play notifications (Pub/Sub
// push, OIDC-authenticated).
import { Router } from '@koa/router';
import { guard } from '../auth/guard.js';
import type { AppContext, RequestState } from '../context.js';
import { validateBody } from '../middleware/validate.js';
import { googlePlayNotification, PLAY_RTDN_RATE } from './google-play.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { APPLE_NOTIFICATION_RATE, appleNotification, appleNotificationBody } from './apple.js';
import { directPurchase, directPurchaseBody } from './purchase.js';
import { stripeWebhook } from './stripe.js';
import { stripeConnectWebhook } from './stripe-connect.js';
import { subproviderWebhook, subproviderWebhookForApp } from './subprovider.js';

export function webhookRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>({ prefix: '/api/webhooks' });

  router.post('/subprovider/:appId', subproviderWebhookForApp);
  router.post('/subprovider', subproviderWebhook);
  router.post('/purchase', guard({ allow: ['purchase_api'] }), validateBody(directPurchaseBody), directPurchase);
  router.post('/stripe', stripeWebhook);
  router.post('/google-play/:appId', rateLimit(PLAY_RTDN_RATE), googlePlayNotification);
  router.post('/apple/:appId', rateLimit(APPLE_NOTIFICATION_RATE), validateBody(appleNotificationBody), appleNotification);
  router.post('/stripe-connect', stripeConnectWebhook);

  return router;
}
