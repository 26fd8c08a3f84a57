// PLACEHOLDER: public creator join (issue 3).
import { Router } from '@koa/router';
import type { AppContext, RequestState } from '../context.js';

export function publicRoutes(): Router<RequestState, AppContext> {
  return new Router<RequestState, AppContext>();
}
