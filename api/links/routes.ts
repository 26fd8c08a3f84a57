// Referral links (CONTRACT.md "Referral links"). Mounted last in api/app.ts: the pattern takes any two segments
// whose first is not a reserved word (lib/slugs.ts).
import { Router } from '@koa/router';
import type { AppContext, RequestState } from '../context.js';
import { followLink, REFERRAL_LINK_PATH } from './follow-link.js';

export function linkRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();

  router.get('referral-link', REFERRAL_LINK_PATH, followLink);

  return router;
}
