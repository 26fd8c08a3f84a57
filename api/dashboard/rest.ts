// The dashboard REST (spec surface 4): how a row of api/dashboard/routes.ts's REST tables is served. Only a
// signed-in browser session is accepted (api/auth/surfaces.ts answers 401 to SDK keys, purchase API keys, webhook
// secrets and agent credentials before routing), every state-changing call needs the session's CSRF token
// (api/auth/csrf.ts: 403), and the handlers are the agent API's own where one exists, so an id of another
// organization is the same 404. Each route takes JSON or the pages' plain forms (api/view-kit/form-reply.tsx), and
// each successful change is audited with the user as actor.
import { Router } from '@koa/router';
import { guard } from '../auth/guard.js';
import type { AppContext, Middleware, RequestState } from '../context.js';
import { audited, type AuditActor } from '../middleware/audit.js';
import { validateBody, validateQuery } from '../middleware/validate.js';
import { formReply, type FormReplyOptions } from '../view-kit/form-reply.js';

type Handler = (ctx: AppContext) => Promise<void>;
export interface DashboardRoute {
  method: 'get' | 'post' | 'patch';
  path: string;
  action: string;
  handler: Handler;
  body?: object;
  query?: object;
  /** Turns the page's form fields into the body (formReply). */
  form?: (fields: Record<string, unknown>) => Record<string, unknown>;
  /** A destructive row: the page's form post is confirmed first (confirm.tsx); what to ask. */
  confirm?: FormReplyOptions['confirm'];
  /** What the page says after the form's change succeeded. */
  done?: FormReplyOptions['done'];
  /** The page form's labels and rules in words, for a refusal (api/view-kit/form-errors.tsx). */
  words?: FormReplyOptions['words'];
  /** The page form's own rules, listed with the schema's problems (formReply). */
  checks?: FormReplyOptions['checks'];
}

export const r = (
  method: DashboardRoute['method'],
  path: string,
  action: string,
  handler: Handler,
  more: Partial<DashboardRoute> = {},
): DashboardRoute => ({ method, path, action, handler, ...more });

/** The signed-in user, with the row's action. */
const userActor =
  (route: DashboardRoute) =>
  (ctx: AppContext): AuditActor | undefined => {
    const p = ctx.state.principal;
    return p?.kind === 'user' ? { orgId: null, actorType: 'user', actorId: p.userId, action: `dashboard.${route.action}` } : undefined;
  };

/** Mounts dashboard REST rows (api/dashboard/routes.ts lists them): session guard, form replies, validation, audit. */
export function mountRest(router: Router<RequestState, AppContext>, routes: readonly DashboardRoute[]): void {
  for (const route of routes) {
    const chain: Middleware[] = [guard({ allow: ['user'] })];
    if (route.method !== 'get')
      chain.push(
        formReply(route.body, { reshape: route.form, confirm: route.confirm, done: route.done, words: route.words, checks: route.checks }),
      );
    if (route.query) chain.push(validateQuery(route.query));
    if (route.body) chain.push(validateBody(route.body));
    chain.push(audited(route.method, route.path, userActor(route)), route.handler);
    router[route.method](route.path, ...chain);
  }
}
