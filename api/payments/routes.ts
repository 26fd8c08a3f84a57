// Wallet top-ups: the signed top-up link's pages (with auto-recharge), the test-mode confirmation, the pages Stripe
// returns to, and Stripe's webhook. Mounted before the generic signed-link pages, which then never see the top-up purpose.
import { Router } from '@koa/router';
import type { AppContext, RequestState } from '../context.js';
import { setupStatusPage } from './auto-recharge-page.js';
import { stripeWebhook } from './stripe-webhook.js';
import { confirmTopup, startTopup, topupPage, topupStatusPage } from './topup-pages.js';

export function paymentRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard/links/wallet-topup', topupPage);
  router.post('/dashboard/links/wallet-topup', startTopup);
  router.post('/dashboard/topups/:payment_id/confirm', confirmTopup);
  router.get('/dashboard/topups/:payment_id', topupStatusPage);
  router.get('/dashboard/auto-recharge-setups/:setup_id', setupStatusPage);
  router.post('/api/webhooks/stripe', stripeWebhook);
  return router;
}
