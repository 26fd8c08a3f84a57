// Public surfaces without a credential (CONTRACT.md "Public creator join"): the join endpoint, rate-limited per
// IP. The human join page it serves under the dashboard path is a route of the web surface (api/dashboard/routes.ts).
import { Router } from '@koa/router';
import type { AppContext, RequestState } from '../context.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { validateBody } from '../middleware/validate.js';
import { JOIN_RATE, joinCampaign, joinCampaignBody } from './join-campaign.js';

export function publicRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();

  router.post('/api/public/campaigns/:campaignId/join', rateLimit(JOIN_RATE), validateBody(joinCampaignBody), joinCampaign);

  return router;
}
