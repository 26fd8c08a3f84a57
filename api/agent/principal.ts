// The agent principal of a request (the surface guard admitted only agents) and tenancy helpers. The dashboard REST
// (api/dashboard/rest.ts) runs several of the same handlers for a signed-in user: `visibleTo` and `orgIdsOf` work
// for both principals, so the two surfaces apply one organization rule.
import { roleIn } from '../../db/users.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../errors/http-errors.js';
import type { AgentPrincipal } from '../../lib/principal.js';
import { assertOrgAccess } from '../auth/guard.js';
import type { AppContext } from '../context.js';

export function agentOf(ctx: AppContext): AgentPrincipal {
  const p = ctx.state.principal;
  if (p?.kind !== 'agent') throw new UnauthorizedError();
  return p;
}

/** The organizations of the caller: an agent's grant, or a signed-in user's memberships. */
export function orgIdsOf(ctx: AppContext): string[] {
  const p = ctx.state.principal;
  if (p?.kind !== 'agent' && p?.kind !== 'user') throw new UnauthorizedError();
  return p.orgIds;
}

/** The row when it exists in a granted organization; 404 otherwise (never 403: ids cannot be probed). */
export function visibleTo<T extends { org_id: string }>(ctx: AppContext, row: T | undefined, what: string): T {
  if (!row) throw new NotFoundError(`${what} not found`);
  orgIdsOf(ctx);
  assertOrgAccess(ctx.state.principal, row.org_id, `${what} not found`);
  return row;
}

/** Who acts, for `invited_by` / `reviewed_by` / `created_by`: the agent's id, or the signed-in user's (`usr_…`). */
export function actorIdOf(ctx: AppContext): string {
  const p = ctx.state.principal;
  if (p?.kind === 'agent') return p.id;
  if (p?.kind === 'user') return p.userId;
  throw new UnauthorizedError();
}

/**
 * Money decisions (approving a bonus reserves wallet funds) for a signed-in user need the owner or admin role in the
 * row's organization (docs/dashboard.md "Roles"); an agent is already held to its scope by the route's guard.
 */
export async function assertMayDecideMoney(ctx: AppContext, orgId: string, what = 'approve or void bonus awards'): Promise<void> {
  const p = ctx.state.principal;
  if (p?.kind !== 'user') return;
  const role = await roleIn(ctx.deps.db, orgId, p.userId);
  if (role !== 'owner' && role !== 'admin') throw new ForbiddenError(`Only owners and admins of the organization ${what}.`);
}
