// Which principal kinds each surface admits, enforced before routing so that every path under a surface, even one
// that does not exist, refuses foreign credentials with 401 (spec: SDK keys get 401 on the agent API; agent and
// API keys get 401 on the dashboard REST). Routes still declare their own scope rules.
import type { PrincipalKind } from '../../lib/principal.js';
import type { Middleware } from '../context.js';
import { UnauthorizedError } from '../../errors/http-errors.js';
import { isPortalPath } from './authenticate.js';
import { checkRule } from './guard.js';

interface Surface {
  prefix: string;
  allow: readonly PrincipalKind[];
  open?: readonly string[];
}

const SURFACES: readonly Surface[] = [
  { prefix: '/api/sdk/', allow: ['sdk'] },
  { prefix: '/api/agent/', allow: ['agent'], open: ['/api/agent/openapi.json'] },
  { prefix: '/api/apps/', allow: ['user'] },
  { prefix: '/api/campaigns/', allow: ['user'] },
  { prefix: '/api/grants/', allow: ['user'] },
  { prefix: '/api/invitations/', allow: ['user'] },
  { prefix: '/api/bonus-awards/', allow: ['user'] },
  { prefix: '/api/offer-codes/', allow: ['user'] },
  { prefix: '/api/assets/', allow: ['user'] },
];

export const surfaceGuard: Middleware = async (ctx, next) => {
  // A creator is its own principal: admitted by the portal (which checks its own pages) and by nothing else.
  if (ctx.state.principal?.kind === 'creator' && !isPortalPath(ctx.path)) {
    throw new UnauthorizedError('A creator portal session is accepted only by the creator portal (/dashboard/creator).');
  }
  const path = ctx.path.endsWith('/') ? ctx.path : `${ctx.path}/`;
  const surface = SURFACES.find((s) => path.startsWith(s.prefix));
  if (surface && !surface.open?.includes(ctx.path)) {
    const error = checkRule(ctx.state.principal, { allow: surface.allow }, ctx.state.credentialPresented === true);
    if (error) throw error;
  }
  return next();
};
