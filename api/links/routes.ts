// PLACEHOLDER: referral link route (issue 3).
import { Router } from '@koa/router';
import type { AppContext, RequestState } from '../context.js';

export function linkRoutes(): Router<RequestState, AppContext> {
  return new Router<RequestState, AppContext>();
}
