// The agent principal of a request (the surface guard admitted only agents) and tenancy helpers.
import { NotFoundError, UnauthorizedError } from '../../lib/errors.js';
import type { AgentPrincipal } from '../../lib/principal.js';
import { assertOrgAccess } from '../auth/guard.js';
import type { AppContext } from '../context.js';

export function agentOf(ctx: AppContext): AgentPrincipal {
  const p = ctx.state.principal;
  if (p?.kind !== 'agent') throw new UnauthorizedError();
  return p;
}

/** The row when it exists in a granted organization; 404 otherwise (never 403: ids cannot be probed). */
export function visibleTo<T extends { org_id: string }>(ctx: AppContext, row: T | undefined, what: string): T {
  if (!row) throw new NotFoundError(`${what} not found`);
  assertOrgAccess(agentOf(ctx), row.org_id, `${what} not found`);
  return row;
}
