// The one guard (DESIGN.md): which principal kinds a route accepts (others get 401), the scope it needs (403
// naming it), the hard-deny list (403 for every agent whatever its scopes), and the organization check (404 for
// ids outside the granted organizations, never 403). Routes only declare a GuardRule.
import { MissingScopeError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../errors/http-errors.js';
import type { Principal, PrincipalKind } from '../../lib/principal.js';
import type { HardDeniedAction, Scope } from '../../lib/scopes.js';
import type { AppContext, Middleware } from '../context.js';

export interface GuardRule {
  allow: readonly PrincipalKind[];
  scope?: Scope;
  /** The route performs a hard-denied action: no agent may call it, whatever its scopes. */
  deny?: HardDeniedAction;
}

const WHAT: Record<PrincipalKind, string> = {
  sdk: 'an app SDK key',
  webhook: 'a webhook secret',
  purchase_api: 'an app server API key',
  agent: 'an agent key or OAuth token',
  user: 'a dashboard session',
  creator: 'a creator portal session',
};

/** Pure decision, unit-tested on its own: the error to throw, or undefined when the call may proceed. */
export function checkRule(principal: Principal | undefined, rule: GuardRule, credentialPresented = false): Error | undefined {
  const expected = rule.allow.map((k) => WHAT[k]).join(' or ');
  if (!principal) {
    return new UnauthorizedError(
      credentialPresented
        ? `The credential is invalid, expired or revoked. This endpoint needs ${expected} as \`Authorization: Bearer <token>\`.`
        : `Missing credentials. This endpoint needs ${expected} as \`Authorization: Bearer <token>\`.`,
    );
  }
  if (!rule.allow.includes(principal.kind)) {
    return new UnauthorizedError(`This endpoint does not accept ${WHAT[principal.kind]}; it needs ${expected}.`);
  }
  if (principal.kind === 'agent') {
    if (rule.deny) return new ForbiddenError(`'${rule.deny}' is denied to every agent; a human must do this in the dashboard.`);
    if (rule.scope && !principal.scopes.includes(rule.scope)) return new MissingScopeError(rule.scope);
  }
  return undefined;
}

export function guard(rule: GuardRule): Middleware {
  return async (ctx, next) => {
    const error = checkRule(ctx.state.principal, rule, ctx.state.credentialPresented === true);
    if (error) throw error;
    return next();
  };
}

/** Organization ids this principal may see. */
function grantedOrgIds(principal: Principal): readonly string[] {
  if (principal.kind === 'creator') return [];
  return principal.kind === 'agent' || principal.kind === 'user' ? principal.orgIds : [principal.orgId];
}

/** 404 (never 403) when `orgId` is outside the principal's organizations, so ids cannot be probed. */
export function assertOrgAccess(principal: Principal | undefined, orgId: string | null | undefined, what = 'Not found'): void {
  if (!principal || !orgId || !grantedOrgIds(principal).includes(orgId)) throw new NotFoundError(what);
}

export function principalOf(ctx: AppContext): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new UnauthorizedError();
  return principal;
}
