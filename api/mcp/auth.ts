// Who may use /mcp: an agent principal (agent key now, OAuth access token once that issue lands), resolved by the one
// authenticate middleware (api/auth/authenticate.ts) and judged by the one guard rule. Anything else is 401 with a
// WWW-Authenticate challenge naming the protected resource metadata (RFC 9728, api/oauth/challenge.ts).
import { AppError } from '../../errors/http-errors.js';
import { checkRule } from '../auth/guard.js';
import type { Middleware } from '../context.js';
import { bearerChallenge } from '../oauth/challenge.js';

export const requireAgent: Middleware = async (ctx, next) => {
  const refused = checkRule(ctx.state.principal, { allow: ['agent'] }, ctx.state.credentialPresented === true);
  if (refused instanceof AppError)
    throw new AppError(refused.status, refused.detail, { ...refused.headers, 'WWW-Authenticate': bearerChallenge(ctx) });
  if (refused) throw refused;
  return next();
};
