// Client API (spec "Client API", base /api/sdk, auth: the app's SDK key). Hot paths: each answers from
// PostgreSQL directly, without Temporal; /sdk/purchase (store-direct) runs the store-purchase workflow.
import { Router } from '@koa/router';
import { guard } from '../auth/guard.js';
import type { AppContext, RequestState } from '../context.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { validateBody, validateQuery } from '../middleware/validate.js';
import { accessQuery, checkAccess } from './access.js';
import { attributionQuery, getAttribution, getRecentConversions, recentConversionsQuery } from './attribution.js';
import { listCampaigns } from './campaigns.js';
import { eventAliases, eventBody, trackEvent } from './event.js';
import { identify, identifyBody, IDENTIFY_RATE } from './identify.js';
import { init, initBody } from './init.js';
import { purchaseAliases, purchaseBody, reportPurchase } from './purchase.js';
import { setReferralCode, setReferralCodeBody } from './set-referral-code.js';
import { trackInstall, trackInstallAliases, trackInstallBody, trackInstallNestedAliases } from './track-install.js';
import { validateCode, validateCodeBody } from './validate-code.js';

export function sdkRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>({ prefix: '/api/sdk' });
  router.use(guard({ allow: ['sdk'] }));

  router.post('/init', validateBody(initBody), init);
  router.post(
    '/track-install',
    validateBody(trackInstallBody, { aliases: trackInstallAliases, nestedAliases: trackInstallNestedAliases }),
    trackInstall,
  );
  router.post('/identify', rateLimit(IDENTIFY_RATE), validateBody(identifyBody), identify);
  router.post('/event', validateBody(eventBody, { aliases: eventAliases }), trackEvent);
  router.post('/validate-code', validateBody(validateCodeBody), validateCode);
  router.post('/set-referral-code', validateBody(setReferralCodeBody), setReferralCode);
  router.post('/purchase', validateBody(purchaseBody, { aliases: purchaseAliases }), reportPurchase);
  router.get('/access', validateQuery(accessQuery), checkAccess);
  router.get('/campaigns', listCampaigns);
  router.get('/attribution', validateQuery(attributionQuery), getAttribution);
  router.get('/recent-conversions', validateQuery(recentConversionsQuery), getRecentConversions);

  return router;
}
