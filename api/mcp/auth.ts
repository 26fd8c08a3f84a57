// Who may use /mcp: an agent principal (agent key now, OAuth access token once that issue lands), resolved by the one
// authenticate middleware (api/auth/authenticate.ts) and judged by the one guard rule. Anything else is 401 with a
// WWW-Authenticate challenge. The OAuth issue adds `resource_metadata` (RFC 9728) in bearerChallenge, nowhere else.
import { AppError } from '../../lib/errors.js';
import { checkRule } from '../auth/guard.js';
import type { AppContext, Middleware } from '../context.js';

/** The WWW-Authenticate value of a 401 on /mcp. */
export function bearerChallenge(_ctx: AppContext): string {
  return 'Bearer';
}

export const requireAgent: Middleware = async (ctx, next) => {
  const refused = checkRule(ctx.state.principal, { allow: ['agent'] }, ctx.state.credentialPresented === true);
  if (refused instanceof AppError) throw new AppError(refused.status, refused.detail, { ...refused.headers, 'WWW-Authenticate': bearerChallenge(ctx) });
  if (refused) throw refused;
  return next();
};
